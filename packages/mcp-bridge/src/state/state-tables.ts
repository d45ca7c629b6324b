/**
 * The tables of the state database that are not the call journal: assigned MCP tool names, schema
 * versions, tool pins and approvals, sealed upstream grants and accepted revocations. They are
 * read and written synchronously (the registry's `NameStore` and the `ToolPinStore` are), each
 * write committed before it returns. Two implementations: {@link _SqliteTables} on the state
 * file's connection, and the Postgres one of postgres-tables.ts that replicas of one key share.
 * Their SQL is the same (`?` placeholders, `ON CONFLICT` upserts), so one set of statements in
 * state-database.ts serves both.
 * @module
 */
import type Database from 'libsql';

/** One statement of a {@link _StateTables.transaction}. */
export interface _TableStep {
  sql: string;
  params: readonly unknown[];
  /** The whole transaction is rolled back when this statement changes no row. */
  mustChange?: boolean;
}

/** Synchronous access to the state tables (see the module doc). */
export interface _StateTables {
  /** The rows of a query. */
  all(sql: string, params: readonly unknown[]): Record<string, unknown>[];
  /** Runs one statement, committed before it returns. */
  run(sql: string, params: readonly unknown[]): { changes: number };
  /**
   * Runs `steps` in one transaction: all commit, or, when a `mustChange` step changed nothing, none
   * do and the index of that step is returned.
   */
  transaction(steps: readonly _TableStep[]): { ok: true } | { ok: false; failedAt: number };
  close(): void;
}

/** The state tables on the state file's own connection. */
export class _SqliteTables implements _StateTables {
  readonly #db: Database.Database;
  readonly #statements = new Map<string, Database.Statement<unknown[]>>();

  constructor(db: Database.Database) {
    this.#db = db;
  }

  all(sql: string, params: readonly unknown[]): Record<string, unknown>[] {
    return this.#prepared(sql).all(...params) as Record<string, unknown>[];
  }

  run(sql: string, params: readonly unknown[]): { changes: number } {
    return { changes: this.#prepared(sql).run(...params).changes };
  }

  transaction(steps: readonly _TableStep[]): { ok: true } | { ok: false; failedAt: number } {
    let failedAt = -1;
    const run = this.#db.transaction(() => {
      for (const [i, step] of steps.entries()) {
        if (this.#prepared(step.sql).run(...step.params).changes === 0 && step.mustChange) {
          failedAt = i;
          throw new _RolledBack();
        }
      }
    });
    try {
      run.immediate();
      return { ok: true };
    } catch (error) {
      if (error instanceof _RolledBack) return { ok: false, failedAt };
      throw error;
    }
  }

  /** The connection is the state database's: it closes it. */
  close(): void {}

  #prepared(sql: string): Database.Statement<unknown[]> {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare<unknown[]>(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}

/** Rolls a transaction back (a `mustChange` step changed nothing). */
class _RolledBack extends Error {}
