import { describe, expect, it } from 'vitest';
import { engineLines } from './banner.ts';

const offline = { provider: 'offline', model: 'pgs-offline-1' } as const;
const openai = { provider: 'openai', model: 'gpt-4.1-mini' } as const;

describe('engineLines', () => {
  it('says plainly that the offline engine uses no AI model, and how to configure one', () => {
    const lines = engineLines({ models: [offline], testModels: [offline] });
    expect(lines[0]).toBe('Documents: live keys offline, test keys offline');
    expect(lines.join('\n')).toMatch(/rules and templates, no AI model/);
    expect(lines.join('\n')).toContain('PGS_MODELS=openai:gpt-4.1-mini');
  });

  it('names the chains, and still explains offline while one mode uses it', () => {
    const lines = engineLines({ models: [openai, offline], testModels: [offline] });
    expect(lines[0]).toBe('Documents: live keys openai:gpt-4.1-mini → offline, test keys offline');
    expect(lines).toHaveLength(4);
    expect(engineLines({ models: [openai], testModels: [openai] })).toHaveLength(1);
  });
});
