// The docs a platform engineer follows: the README is a front page that links to a guide for every topic, and the
// deploy guide names every context key that lib/config.ts reads exactly once, and no key it does not read.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../lib/config.js';

const root = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** Every context key readConfig asks for, over contexts that take each branch (every provider set, every payment mode). */
function contextKeysRead(): Set<string> {
  const seen = new Set<string>();
  const contexts: Record<string, unknown>[] = [
    {},
    { stage: 'prod', payments: 'stripe', googleClientId: 'id', googleClientSecretName: 'secret', alarmEmail: 'ops@example.com', supportEmail: 'help@example.com' },
    { imageProvider: 'fashn', videoProvider: 'fashn', fashnApiUrl: 'https://fashn.example', fashnApiKeySecretName: 'fashn', editProvider: 'bedrock', upscaleProvider: 'bedrock' },
    { imageProvider: 'google', editProvider: 'google', videoProvider: 'google', upscaleProvider: 'local' },
    { stage: 'staging', payments: 'test' },
  ];
  for (const context of contexts) {
    const node = {
      tryGetContext: (key: string): unknown => {
        seen.add(key);
        return { allowBelowCost: true, fashnApiUrl: 'https://fashn.example', fashnApiKeySecretName: 'fashn', ...context }[key];
      },
    };
    try {
      readConfig(node as never);
    } catch {
      // A context this test made up may be refused after its keys were read; the keys are what counts here.
    }
  }
  return seen;
}

/** The keys in the first column of the deploy guide's "Context keys" table, one per row. */
function documentedKeys(): string[] {
  const guide = read('docs/deploy.md');
  const section = guide.slice(guide.indexOf('## Context keys'));
  const table = section.slice(0, section.indexOf('\n## ') === -1 ? undefined : section.indexOf('\n## '));
  return [...table.matchAll(/^\| `([A-Za-z]+)` \|/gm)].map((match) => match[1]!);
}

describe('the deploy guide', () => {
  it('names every context key lib/config.ts reads exactly once, and no other', () => {
    const documented = documentedKeys();
    const read = [...contextKeysRead()].sort();
    expect(read.length).toBeGreaterThan(20);
    const counts = new Map<string, number>();
    for (const key of documented) counts.set(key, (counts.get(key) ?? 0) + 1);
    expect([...counts].filter(([, count]) => count > 1).map(([key]) => key), 'listed twice').toEqual([]);
    expect(read.filter((key) => !counts.has(key)), 'read but not in docs/deploy.md').toEqual([]);
    expect(documented.filter((key) => !read.includes(key)), 'in docs/deploy.md but never read').toEqual([]);
  });

  it('leads from an empty account in numbered steps: bootstrap, one secret, deploy, providers:check, sign in', () => {
    const steps = read('docs/deploy.md').split('## The five steps')[1]!.split('\n## ')[0]!;
    const numbered = [...steps.matchAll(/^(\d)\. \*\*([^*]+)\*\*/gm)].map((match) => `${match[1]} ${match[2]}`);
    expect(numbered).toEqual(['1 Bootstrap CDK', '2 Store one secret', '3 Deploy', '4 Check the providers', '5 Sign in']);
    expect(steps).toContain('npm run providers:check');
  });
});

describe('the README', () => {
  const readme = read('README.md');

  it('is a front page: at most 200 lines, starting with the two commands', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
    const firstBlock = readme.split('```')[1]!;
    expect(firstBlock).toContain('npm start');
    expect(firstBlock).toContain('npm test');
  });

  it('links to a guide for every topic, and every link it makes into docs/ exists', () => {
    const links = [...readme.matchAll(/\]\((docs\/[^)#]+)/g)].map((match) => match[1]!);
    for (const guide of ['architecture', 'money', 'providers', 'public-api', 'operations', 'local-twin', 'testing', 'deploy']) {
      expect(links, guide).toContain(`docs/${guide}.md`);
    }
    expect(links.filter((link) => !existsSync(join(root, link)))).toEqual([]);
  });
});
