import { describe, expect, it } from 'vitest';
import { answerDocument, continuedDocument } from './answer.ts';

describe("a model's answer read as its document", () => {
  it('unwraps a document fenced whole as markdown, and leaves any other answer trimmed', () => {
    expect(answerDocument('```markdown\n# Plan\n\nText\n```\n')).toBe('# Plan\n\nText');
    expect(answerDocument('```md\n# Plan\n```')).toBe('# Plan');
    expect(answerDocument('```\n# Plan\n```')).toBe('# Plan');
    expect(answerDocument('  # Plan\n\n```ts\nconst a = 1;\n```\n')).toBe(
      '# Plan\n\n```ts\nconst a = 1;\n```',
    );
    expect(answerDocument('```ts\nconst a = 1;\n```')).toBe('```ts\nconst a = 1;\n```');
  });

  it('keeps the fences of a document that holds code, inside a wrapper of as many backticks', () => {
    const inner = '# Plan\n\n```ts\nconst a = 1;\n```\n\nText';
    expect(answerDocument(`\`\`\`markdown\n${inner}\n\`\`\``)).toBe(inner);
    expect(answerDocument(`\`\`\`\`markdown\n${inner}\n\`\`\`\``)).toBe(inner);
  });

  it('joins a cut answer and its continuation, a repeated or closing wrapper fence dropped', () => {
    expect(continuedDocument('# Plan\n\nTe', 'xt')).toBe('# Plan\n\nText');
    expect(continuedDocument('```markdown\n# Plan\n\nTe', 'xt\n```')).toBe('# Plan\n\nText');
    expect(continuedDocument('```markdown\n# Plan\n\nTe', '```markdown\nxt\n```')).toBe(
      '# Plan\n\nText',
    );
    // A document's own code block, cut and closed by the continuation, keeps its fence.
    expect(continuedDocument('# Plan\n\n```ts\nconst a', ' = 1;\n```')).toBe(
      '# Plan\n\n```ts\nconst a = 1;\n```',
    );
  });
});
