import { fireEvent, screen } from '@testing-library/react';
import { useId, useState, type ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hydrateIslands } from './hydrate';
import { Island, type IslandParts } from './islands';
import { renderWithIslands } from './render-islands';

const rendered = vi.fn();

/** A static paragraph: its component runs on the server only once the page has islands. */
function Prose() {
  rendered('prose');
  return <p>Every plan unlocks every indicator.</p>;
}

function Counter({ label }: { label: string }) {
  const id = useId();
  const [taps, setTaps] = useState(0);
  return (
    <button type="button" id={id} onClick={() => setTaps((count) => count + 1)}>
      {label} {taps}
    </button>
  );
}

function Page() {
  return (
    <main>
      <Prose />
      <Island name="first">
        <Counter label="First" />
      </Island>
      <Island name="second">
        <Counter label="Second" />
      </Island>
    </main>
  );
}

const wrap = (island: ReactElement) => <section>{island}</section>;
const PARTS: IslandParts = { first: () => Counter, second: () => Promise.resolve(Counter) };

afterEach(() => {
  document.body.innerHTML = '';
  rendered.mockClear();
});

describe('a page of islands', () => {
  it('is whole HTML from the server, each island in a container with its props beside it', () => {
    const html = renderWithIslands(<Page />, wrap);
    document.body.innerHTML = html;
    expect(screen.getByText('Every plan unlocks every indicator.')).toBeTruthy();
    const containers = [...document.querySelectorAll<HTMLElement>('[data-island]')];
    expect(containers.map((container) => [container.dataset.island, container.dataset.props, container.className])).toEqual([
      ['first', '{"label":"First"}', 'contents'],
      ['second', '{"label":"Second"}', 'contents'],
    ]);
    // each island is rendered as the browser will hydrate it: in `wrap`, with ids of its own
    expect(containers.map((container) => container.firstElementChild?.tagName)).toEqual(['SECTION', 'SECTION']);
    const [first, second] = screen.getAllByRole('button');
    expect(first?.id).not.toBe(second?.id);
  });

  it('hydrates its islands and leaves the rest as the server sent it', async () => {
    document.body.innerHTML = `<div id="root">${renderWithIslands(<Page />, wrap)}</div>`;
    rendered.mockClear();
    const prose = screen.getByText('Every plan unlocks every indicator.');
    const button = screen.getByRole('button', { name: 'Second 0' });
    const errors = vi.spyOn(console, 'error');

    // as in a browser: React commits on its own schedule, which the queue waits on (no act())
    const actEnvironment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = false;
    try {
      await hydrateIslands(PARTS, wrap);
      fireEvent.click(button);
      await vi.waitFor(() => expect(button.textContent).toBe('Second 1'));
    } finally {
      actEnvironment.IS_REACT_ACT_ENVIRONMENT = true;
    }
    expect(screen.getByRole('button', { name: 'First 0' })).toBeTruthy();
    // the static part was neither rendered again nor replaced, and nothing mismatched
    expect(rendered).not.toHaveBeenCalled();
    expect(prose.isConnected).toBe(true);
    expect(errors).not.toHaveBeenCalled();
  });

  it('refuses props the browser could not read back', () => {
    const page = (
      <Island name="first">
        <Counter label={(() => 'First') as unknown as string} />
      </Island>
    );
    expect(() => renderWithIslands(page, wrap)).toThrow(/props must be JSON/);
  });
});
