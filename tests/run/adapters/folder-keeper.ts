/**
 * The baseline, plus one write per leg into the item's own checkpoint folder (`note.txt`: the item
 * id): the seats test reads every folder back to show that each item's writes landed in its own,
 * with several items in one worker at once.
 */
import { appendFileSync } from "node:fs";
import path from "node:path";
import vanilla from "../../../workers/adapters/vanilla/index.ts";
import type { Adapter } from "../../../contract/adapter.ts";

const adapter: Adapter = {
  name: "folder-keeper",
  libVersion: "test (wraps vanilla)",
  build: async (arena, config, ctx) => {
    const runner = await vanilla.build(arena, config, ctx);
    return {
      run: (item) => {
        appendFileSync(path.join(item.checkpointDir, "note.txt"), `${item.id}\n`);
        return runner.run(item);
      },
      ...(runner.resume ? { resume: runner.resume.bind(runner) } : {}),
    };
  },
};
export default adapter;
