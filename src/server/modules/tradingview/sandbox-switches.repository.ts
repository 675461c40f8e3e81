// The sandbox TradingView's demo switches, kept in the database so that every instance of the app
// behind one database simulates the same thing (an outage switched on in the console reaches the
// instance that runs the reconciler). Beside the sandbox adapter, its one user.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sandboxSwitches } from '../../db/schema';

export type SandboxSwitch = 'tradingview_outage';

/** Whether the switch is on; a switch never written is off. */
export async function readSandboxSwitch(db: Db, name: SandboxSwitch): Promise<boolean> {
  const [row] = await db.select({ enabled: sandboxSwitches.enabled }).from(sandboxSwitches).where(eq(sandboxSwitches.name, name)).limit(1);
  return row?.enabled ?? false;
}

export async function writeSandboxSwitch(db: Db, name: SandboxSwitch, enabled: boolean): Promise<void> {
  await db
    .insert(sandboxSwitches)
    .values({ name, enabled })
    .onConflictDoUpdate({ target: sandboxSwitches.name, set: { enabled, updatedAt: sql`now()` } });
}
