/**
 * The statistics every report a user asks for states: the run's own report and `arena report`
 * pass this same object, so the two pages of one run never differ in what they show.
 */
import { bootstrapMeanInterval, clusteredPassInterval, pairedItemTest } from "../../stats/index.ts";
import type { ReportStatistics } from "./types.ts";

export const REPORT_STATISTICS: ReportStatistics = { clusteredPassInterval, bootstrapMeanInterval, pairedItemTest };
