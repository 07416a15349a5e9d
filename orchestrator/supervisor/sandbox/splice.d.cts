import type net from "node:net";

/** Pipe two sockets into each other; either side failing or ending ends both (splice.cjs). */
export declare function splice(a: net.Socket, b: net.Socket): void;
