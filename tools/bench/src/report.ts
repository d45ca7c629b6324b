/**
 * Output of a run: aligned text tables for the terminal, Markdown tables for docs/performance.md,
 * and the JSON document (machine, load, every suite's figures and ratios).
 * @module
 */
import { cpus, loadavg, totalmem } from 'node:os';
import type { SuiteResult, Table } from './suite.js';

/** The machine a run measured, stated beside every figure. */
export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly platform: string;
  /** 1, 5 and 15 minute load averages when the run started and ended. */
  readonly loadStart: readonly number[];
  loadEnd?: readonly number[];
}

/** Describes this machine now. */
export function describeMachine(): Machine {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadStart: loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

/** A table as aligned text (first column left, the others right). */
export function textTable(table: Table): string {
  const all = [table.header, ...table.rows];
  const widths = table.header.map((_, column) => Math.max(...all.map((row) => (row[column] ?? '').length)));
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ');
  return [table.caption, line(table.header), ...table.rows.map(line)].join('\n');
}

/** A table as Markdown, its caption as a bold line above. */
export function markdownTable(table: Table): string {
  const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [
    `**${table.caption}**`,
    '',
    row(table.header),
    row(table.header.map((_, i) => (i === 0 ? '---' : '---:'))),
    ...table.rows.map(row),
  ].join('\n');
}

/** The JSON document of a run. */
export function runDocument(machine: Machine, suites: readonly SuiteResult[], size: string): unknown {
  return {
    date: new Date().toISOString(),
    size,
    machine,
    suites: suites.map(({ id, title, ratios, data, tables }) => ({ id, title, ratios, tables, data })),
  };
}
