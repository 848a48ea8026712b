import { describe, expect, it } from 'vitest';
import { REQUIREMENTS } from '../../test/fixtures/trace-documents.ts';
import {
  type DraftContext,
  type DraftTask,
  draftDigest,
  parentOf,
  readSpec,
  requirementDraft,
  taskDraft,
} from './drafts.ts';
import { readMarker } from './providers/provider.ts';

const PROJECT = '0b7d1c1e-6f0a-4d7e-9a51-3f1f2b0c9d11';
const spec = readSpec([{ filename: 'PRODUCT_REQUIREMENTS.md', content: REQUIREMENTS }]);
const task: DraftTask = {
  id: 'T-3',
  title: 'Build the reminder sender',
  phase: 'M2 Reminders',
  requirements: ['FR-2', 'FR-1'],
  criteria: ['FR-2.1'],
  dependsOn: ['T-1', 'T-2'],
  files: ['src/reminders.ts'],
  status: 'todo',
};
const ids: Record<string, { externalId: string; key: string }> = {
  'T-1': { externalId: '11', key: '#11' },
  'FR-2': { externalId: '5', key: '#5' },
};
const context = (over: Partial<DraftContext> = {}): DraftContext => ({
  projectId: PROJECT,
  scope: 'tasks',
  spec,
  projectUrl: 'https://pgs.example/projects/x',
  externalIdOf: (id) => ids[id]?.externalId,
  keyOf: (id) => ids[id]?.key,
  ...over,
});

describe('drafts', () => {
  it('reads a criterion as the content of its node, a list item without its marker', () => {
    const listed = readSpec([
      {
        filename: 'PRODUCT_REQUIREMENTS.md',
        content:
          '### FR-1 Notes (Must)\n\n- [ ] **FR-1.1** WHEN a user keeps a note\n  THE SYSTEM SHALL store it.\n',
      },
    ]);
    expect(listed.criteria.get('FR-1.1')).toBe(
      '**FR-1.1** WHEN a user keeps a note THE SYSTEM SHALL store it.',
    );
  });

  it('reads each FR group with its criteria in full from the requirements', () => {
    expect(spec.requirements.map((r) => r.id)).toEqual(['FR-1', 'FR-2', 'FR-3']);
    expect(spec.criteria.get('FR-3.1')).toMatch(/^\*\*FR-3\.1\*\* WHEN/);
    const fr2 = spec.requirements[1]!;
    expect(fr2.criteria.map((c) => c.id)).toEqual(['FR-2.1', 'FR-2.2']);
    // The whole criterion, on one line, not the trace's 120-character title.
    expect(spec.criteria.get('FR-2.1')).toMatch(/^\*\*FR-2\.1\*\* WHEN .*SHALL/);
    expect(spec.criteria.get('FR-2.1')).not.toContain('\n');
  });

  it('writes a task as its title, its plan, its criteria as a checklist, a link back and the marker', () => {
    const draft = taskDraft(task, context());
    expect(draft.title).toBe('T-3 Build the reminder sender');
    expect(draft.body).toContain('**Phase:** M2 Reminders');
    expect(draft.body).toContain('**Depends on:** T-1 (#11), T-2');
    expect(draft.body).toContain(`- [ ] ${spec.criteria.get('FR-2.1')}`);
    expect(draft.body).toContain('[T-3 in PGS](https://pgs.example/projects/x)');
    expect(readMarker(draft.body)).toEqual({ projectId: PROJECT, itemId: 'T-3' });
    expect(draft.labels).toEqual(['pgs', 'FR-2', 'FR-1']);
    // Only the dependencies already on the tracker can block it; no parent with scope tasks.
    expect(draft.blockedBy).toEqual(['11']);
    expect(draft.parent).toBeUndefined();
  });

  it('ticks the checklist of a done task', () => {
    const draft = taskDraft({ ...task, status: 'done' }, context());
    expect(draft.body).toContain(`- [x] ${spec.criteria.get('FR-2.1')}`);
    expect(draftDigest(draft)).not.toBe(draftDigest(taskDraft(task, context())));
  });

  it('puts a task under its first FR group when parents are synced', () => {
    expect(parentOf(task, { scope: 'all', spec })).toBe('FR-2');
    expect(parentOf(task, { scope: 'tasks', spec })).toBeUndefined();
    expect(taskDraft(task, context({ scope: 'requirements' })).parent).toBe('5');
    // A requirement that is no FR group of the spec (an NFR) is no parent.
    expect(parentOf({ ...task, requirements: ['NFR-1'] }, { scope: 'all', spec })).toBeUndefined();
  });

  it('writes an FR group as a parent with its criteria', () => {
    const draft = requirementDraft(spec.requirements[0]!, context({ scope: 'all' }));
    expect(draft.title).toMatch(/^FR-1 /);
    expect(draft.labels).toEqual(['pgs', 'FR-1']);
    expect(draft.body).toContain(`- [ ] ${spec.criteria.get('FR-1.1')}`);
    expect(readMarker(draft.body)).toEqual({ projectId: PROJECT, itemId: 'FR-1' });
  });

  it('digests the same draft the same way, labels and blockers as sets', () => {
    const draft = taskDraft(task, context());
    const shuffled = { ...draft, labels: [...draft.labels].reverse() };
    expect(draftDigest(shuffled)).toBe(draftDigest(draft));
    expect(draftDigest({ ...draft, title: `${draft.title}!` })).not.toBe(draftDigest(draft));
    expect(draftDigest({ ...draft, blockedBy: [] })).not.toBe(draftDigest(draft));
    expect(draftDigest(draft)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('says so when no project URL is configured, rather than linking nowhere', () => {
    expect(taskDraft(task, context({ projectUrl: undefined })).body).not.toContain('in PGS](');
  });
});
