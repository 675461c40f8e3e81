import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StaticHtml } from '@client/lib/kept-html';

const pointRendered = vi.fn();

function Point({ text }: { text: string }) {
  pointRendered(text);
  return <li>{text}</li>;
}

function Section() {
  const [taps, setTaps] = useState(0);
  return (
    <section>
      <StaticHtml as="ul" className="points" aria-label="What you get">
        <Point text="Encrypted payment" />
        <Point text="Cancel any time" />
      </StaticHtml>
      <button type="button" onClick={() => setTaps((count) => count + 1)}>
        Tapped {taps}
      </button>
    </section>
  );
}

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
  pointRendered.mockClear();
});

describe('static markup of a pre-rendered page', () => {
  it('is kept as the server rendered it when the page hydrates: not rebuilt, its components not run', async () => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(<Section />);
    document.body.append(container);
    const list = container.querySelector('ul');
    const items = [...container.querySelectorAll('li')];
    expect(list).toHaveAttribute('data-kept');
    pointRendered.mockClear();

    await act(async () => {
      root = hydrateRoot(container, <Section />);
    });

    expect(pointRendered).not.toHaveBeenCalled();
    expect(container.querySelector('ul')).toBe(list);
    expect([...container.querySelectorAll('li')]).toEqual(items);
    expect(list).toHaveClass('points');
    expect(list).toHaveAttribute('aria-label', 'What you get');
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Encrypted payment', 'Cancel any time']);
    // the interactive part beside it hydrated
    fireEvent.click(screen.getByRole('button'));
    expect(screen.getByRole('button')).toHaveTextContent('Tapped 1');
    expect(container.querySelector('ul')).toBe(list);
  });

  it('is rendered as usual in its element where the browser renders the page itself', () => {
    render(<Section />);
    const list = screen.getByRole('list', { name: 'What you get' });
    expect(list).toHaveClass('points');
    expect(list).not.toHaveAttribute('data-kept');
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Encrypted payment', 'Cancel any time']);
    expect(pointRendered).toHaveBeenCalledTimes(2);
  });
});
