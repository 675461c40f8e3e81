// The console's Telegram page (/admin/telegram): the counts, the managed chats and the plans (by
// slug) that open each, the linked accounts with failures first and "Retry now", the setup check
// (the doctor's, with the chats) and the audit's latest repairs.
import { useState } from 'react';
import type { TelegramConsole, TelegramManagedChat } from '@shared/telegram/contract';
import { TableScroll } from '@client/components/data-table';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card, CardTitle } from '@client/components/ui/card';
import { Input } from '@client/components/ui/input';
import { Spinner } from '@client/components/ui/spinner';
import { useRetryTelegramAccount, useSaveTelegramChats, useTelegramChecks, useTelegramConsole } from './telegram-api';

function ChatsEditor({ data }: { data: TelegramConsole }) {
  const save = useSaveTelegramChats();
  const [chats, setChats] = useState<TelegramManagedChat[]>(data.chats);
  const [problem, setProblem] = useState<string | null>(null);
  const update = (index: number, change: Partial<TelegramManagedChat>) => setChats((all) => all.map((chat, at) => (at === index ? { ...chat, ...change } : chat)));
  async function submit() {
    setProblem(null);
    try {
      const saved = await save.mutateAsync(chats);
      setChats(saved.chats);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : 'The chats could not be saved.');
    }
  }
  return (
    <Card role="region" aria-label="Managed chats" className="space-y-4">
      <CardTitle>Managed chats</CardTitle>
      <p className="text-sm text-muted">Members with access are invited to a chat for every plan, or to the chats of their plan; a plan change swaps them. Members of other chats are never touched.</p>
      {data.chats.length === 0 && data.adapter === 'sandbox' ? <p className="text-sm text-muted">None saved: the sandbox’s VIP Signals chat stands in for every plan.</p> : null}
      {chats.map((chat, index) => (
        <div key={index} className="space-y-2 rounded-xl border border-border p-4">
          <div className="grid grid-cols-2 gap-3">
            <Input aria-label="Chat id" value={chat.chatId} onChange={(event) => update(index, { chatId: event.target.value })} placeholder="-1001234567890" />
            <Input aria-label="Title" value={chat.title} onChange={(event) => update(index, { title: event.target.value })} placeholder="VIP Signals" />
          </div>
          <div className="flex flex-wrap items-center gap-4 text-sm">
            <label className="flex items-center gap-2">
              <input type="checkbox" checked={chat.everyPlan} onChange={(event) => update(index, { everyPlan: event.target.checked })} /> Every plan
            </label>
            {chat.everyPlan
              ? null
              : data.planSlugs.map((slug) => (
                  <label key={slug} className="flex items-center gap-2">
                    <input
                      type="checkbox"
                      checked={chat.planSlugs.includes(slug)}
                      onChange={(event) => update(index, { planSlugs: event.target.checked ? [...chat.planSlugs, slug] : chat.planSlugs.filter((each) => each !== slug) })}
                    />
                    {slug}
                  </label>
                ))}
            <Button size="sm" variant="ghost" onClick={() => setChats((all) => all.filter((_, at) => at !== index))}>
              Remove
            </Button>
          </div>
        </div>
      ))}
      {problem ? <p role="alert" className="text-sm text-danger">{problem}</p> : null}
      <div className="flex gap-3">
        <Button variant="outline" onClick={() => setChats((all) => [...all, { chatId: '', title: '', everyPlan: true, planSlugs: [] }])}>
          Add a chat
        </Button>
        <Button disabled={save.isPending} onClick={() => void submit()}>
          {save.isPending ? 'Saving...' : 'Save chats'}
        </Button>
      </div>
    </Card>
  );
}

function Checks() {
  const checks = useTelegramChecks();
  return (
    <Card role="region" aria-label="Setup check" className="space-y-3">
      <CardTitle>Setup check</CardTitle>
      <Button variant="outline" disabled={checks.isPending} onClick={() => checks.mutate()}>
        {checks.isPending ? 'Checking...' : 'Check the bot and the chats'}
      </Button>
      {checks.data ? (
        <ul className="space-y-1 text-sm">
          {checks.data.checks.map((check, index) => (
            <li key={index}>
              <Badge tone={check.status === 'ok' ? 'green' : check.status === 'sandbox' ? 'purple' : 'red'}>{check.status}</Badge> {check.message}
              {check.fix ? <span className="block pl-2 text-muted">fix: {check.fix}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}

export function AdminTelegramPage() {
  const page = useTelegramConsole();
  const retry = useRetryTelegramAccount();
  if (page.isPending) return <Spinner label="Loading Telegram..." />;
  if (page.isError) return <p className="text-sm text-danger">Telegram could not be loaded.</p>;
  const data = page.data;
  const figures = [
    ['Linked members', data.counts.linked],
    ['Synced', data.counts.synced],
    ['Pending', data.counts.pending],
    ['Failing', data.counts.failing],
  ] as const;
  return (
    <div className="space-y-6">
      <header className="flex items-center gap-3">
        <h1 className="text-2xl font-bold text-white">Telegram</h1>
        {data.adapter === 'sandbox' ? <Badge tone="purple">sandbox Telegram</Badge> : null}
      </header>
      <Card role="region" aria-label="Telegram at a glance">
        <dl className="grid grid-cols-4 gap-4">
          {figures.map(([label, value]) => (
            <div key={label}>
              <dt className="text-sm text-muted">{label}</dt>
              <dd className={label === 'Failing' && value > 0 ? 'text-2xl font-semibold text-danger' : 'text-2xl font-semibold text-white'}>{value}</dd>
            </div>
          ))}
        </dl>
      </Card>
      <ChatsEditor key={JSON.stringify(data.chats)} data={data} />
      <Card role="region" aria-label="Linked accounts" className="space-y-3">
        <CardTitle>Linked accounts</CardTitle>
        <TableScroll>
          <table className="w-full text-left text-sm">
            <thead className="text-muted">
              <tr>
                <th className="py-2">Member</th>
                <th>Telegram</th>
                <th>Chats wanted</th>
                <th>Status</th>
                <th>Last error</th>
                <th>Action</th>
              </tr>
            </thead>
            <tbody>
              {data.accounts.map((account) => (
                <tr key={account.id} className="border-t border-border">
                  <td className="py-2">{account.email}</td>
                  <td>
                    @{account.username} {account.current ? null : <Badge>Old</Badge>}
                  </td>
                  <td>{account.wantedChats.join(', ') || '—'}</td>
                  <td>
                    <Badge tone={account.status === 'failed' ? 'red' : account.status === 'synced' ? 'green' : 'yellow'}>{account.status}</Badge>
                  </td>
                  <td className="text-danger">{account.lastError ?? '—'}</td>
                  <td>
                    {account.status === 'failed' ? (
                      <Button size="sm" variant="outline" disabled={retry.isPending} onClick={() => retry.mutate(account.id)}>
                        Retry now
                      </Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
        {data.accounts.length === 0 ? <p className="text-sm text-muted">No member has linked Telegram yet.</p> : null}
      </Card>
      <Checks />
      <Card role="region" aria-label="Audit repairs" className="space-y-2">
        <CardTitle>The audit’s latest repairs</CardTitle>
        {data.repairs.length === 0 ? <p className="text-sm text-muted">Nothing repaired.</p> : null}
        <ul className="text-sm">
          {data.repairs.map((repair, index) => (
            <li key={index}>
              {new Date(repair.repairedAt).toLocaleString()}: {repair.action} {repair.telegramUserId} in {repair.chatId} ({repair.reason})
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}
