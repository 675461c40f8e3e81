import { useState } from 'react';
import { PLAN_TYPES, type PlanType } from '@shared/plans';
import type { ScriptCatalogView } from '@shared/script-catalog';
import { TableScroll } from '@client/components/data-table';
import { Button } from '@client/components/ui/button';
import { Card, CardDescription, CardTitle } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { ConfirmAction } from '@client/components/console/confirm-action';
import { dateTimeText, planLabel } from '@client/lib/console-format';
import { useScriptCatalog, useSetScriptPlans, useSyncScripts } from './script-catalog-api';

type Script = ScriptCatalogView['scripts'][number];

const samePlans = (a: readonly PlanType[], b: readonly PlanType[]) => a.length === b.length && a.every((plan) => b.includes(plan));

/** One script: a box per plan, saved behind a confirmation (members gain or lose the script). */
function ScriptRow({ script }: { script: Script }) {
  const [plans, setPlans] = useState<PlanType[]>(script.plans);
  const save = useSetScriptPlans();
  const toggle = (plan: PlanType) => setPlans((current) => (current.includes(plan) ? current.filter((p) => p !== plan) : PLAN_TYPES.filter((p) => p === plan || current.includes(p))));
  return (
    <tr className="border-t border-border align-top">
      <td className="py-2 pr-3">
        <div>{script.name}</div>
        <div className="font-mono text-xs text-muted">{script.id}</div>
        <div className="text-xs text-muted">{script.syncedAt ? `listed ${dateTimeText(script.syncedAt)}` : 'from TRADINGVIEW_SCRIPT_IDS, not synced yet'}</div>
      </td>
      {PLAN_TYPES.map((plan) => (
        <td key={plan} className="py-2 text-center">
          <input type="checkbox" aria-label={`${script.name}: ${planLabel(plan)}`} checked={plans.includes(plan)} onChange={() => toggle(plan)} />
        </td>
      ))}
      <td className="py-2 pl-3">
        <ConfirmAction
          label="Save"
          title={`Plans of ${script.name}`}
          description={`Members of the plans you add get ${script.name} on TradingView; members of the plans you remove lose it, unless another plan of theirs grants it.`}
          confirmLabel="Save plans"
          disabled={samePlans(plans, script.plans)}
          run={() => save.mutateAsync({ scriptId: script.id, plans })}
        />
      </td>
    </tr>
  );
}

/** The script catalog: which of the vendor's invite-only scripts each plan grants. */
export function ScriptCatalogCard() {
  const catalog = useScriptCatalog();
  const sync = useSyncScripts();
  return (
    <Card aria-labelledby="tv-scripts" className="space-y-4">
      <header className="flex items-start justify-between gap-4">
        <div>
          <CardTitle id="tv-scripts">Scripts and plans</CardTitle>
          <CardDescription>The vendor's invite-only scripts and the plans that grant each. A sync reads them from TradingView and never changes anyone's access.</CardDescription>
        </div>
        <Button size="sm" variant="outline" onClick={() => sync.mutate()} disabled={sync.isPending}>
          Sync from TradingView
        </Button>
      </header>
      {sync.isSuccess ? <p role="status" className="text-sm text-muted">{sync.data}</p> : null}
      {sync.isError ? (
        <p role="alert" className="text-sm text-danger">
          {sync.error.message}
        </p>
      ) : null}
      {catalog.isPending ? (
        <Spinner label="Loading the scripts..." />
      ) : catalog.isError ? (
        <p role="alert" className="text-sm text-danger">
          {catalog.error.message}
        </p>
      ) : (
        <TableScroll>
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Scripts and the plans that grant them</caption>
            <thead className="text-muted">
              <tr>
                <th className="py-1 font-medium">Script</th>
                {PLAN_TYPES.map((plan) => (
                  <th key={plan} className="py-1 text-center font-medium">
                    {planLabel(plan)}
                  </th>
                ))}
                <th className="py-1">
                  <span className="sr-only">Save</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {catalog.data.scripts.map((script) => (
                <ScriptRow key={script.id} script={script} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Card>
  );
}
