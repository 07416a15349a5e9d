/** Plain aligned columns for terminal tables; the last column is never padded (no trailing spaces). */
export function renderTable(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => (r[col] ?? "").length)));
  const line = (r: readonly string[]) => r.map((cell, col) => (col === r.length - 1 ? cell : cell.padEnd(widths[col]!))).join("  ");
  return rows.map(line).join("\n") + "\n";
}
