import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The guides describe the member's real journey (the payment-success page, the settings page):
// these checks guard the statements that once contradicted it.
const CONTENT_DIR = fileURLToPath(new URL('../../../../content', import.meta.url));

async function markdownFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? markdownFiles(join(dir, entry.name)) : Promise.resolve(entry.name.endsWith('.md') ? [join(dir, entry.name)] : []))),
  );
  return nested.flat();
}

const allText = async () => (await Promise.all((await markdownFiles(CONTENT_DIR)).map((file) => readFile(file, 'utf8')))).join('\n');

describe('content against the real flow', () => {
  it('never says the TradingView username is given at checkout: it is asked after payment', async () => {
    const text = await allText();
    expect(text).not.toMatch(/username[^.]*at checkout|at checkout[^.]*username/i);
    expect(text).not.toMatch(/after purchase[^.]*1–2 hours|1–2 hours after purchase/);
    const setup = await readFile(join(CONTENT_DIR, 'guides/product-setup.md'), 'utf8');
    expect(setup).toContain('Give your exact TradingView username after payment');
  });

  it('tells members to correct a wrong username themselves in Settings, My Account, as the app lets them', async () => {
    for (const file of ['guides/product-setup.md', 'guides/tradingview-account.md']) {
      const text = await readFile(join(CONTENT_DIR, file), 'utf8');
      expect(text, file).toMatch(/click Change beside it/i);
      expect(text, file).not.toContain('we will move your access');
    }
  });

  it('names strategies as the Strategies page shows them (without "Blueprint") outside their own pages', async () => {
    const guides = (await Promise.all((await markdownFiles(join(CONTENT_DIR, 'guides'))).map((file) => readFile(file, 'utf8')))).join('\n');
    expect(guides).not.toMatch(/Blueprint/);
  });
});
