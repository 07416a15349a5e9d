/** The command registry: `arena --help` lists these in this order. Add a command with one line here. */
import type { Command } from "../command.ts";
import { listCommand } from "./list.ts";
import { validateCommand } from "./validate.ts";
import { gatewayCommand } from "./gateway.ts";
import { runCommand } from "./run.ts";
import { benchCommand } from "./bench.ts";

export const COMMANDS: readonly Command[] = [validateCommand, listCommand, runCommand, benchCommand, gatewayCommand];
