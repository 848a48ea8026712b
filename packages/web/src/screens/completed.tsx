import {
  type ArchiveLayout,
  type PartProvenance,
  type ProjectCompleted,
  type ProjectDocument,
  type Provenance,
  projectSlug,
} from '@pgs/client';
import { useMemo, useRef, useState } from 'preact/hooks';
import { ProblemAlert, StatusLine } from '../components.tsx';
import { copyText, saveBlob } from '../download.ts';
import { documentTitle, questionnaireEntries, typeLabel } from '../format.ts';
import { useSession } from '../hooks.ts';
import { renderMarkdown } from '../markdown.ts';
import { describeError, type Problem } from '../messages.ts';
import { authorship, documentPart, writtenBy } from '../provenance.ts';
import { syncHref } from '../routes.ts';
import { PlanBoard } from './board.tsx';
import { CodebaseSection } from './codebase.tsx';
import { type Plan, usePlan } from './plan-state.ts';
import { StatusBadge } from './projects.tsx';
import {
  DocumentCost,
  OfflineNotice,
  ProjectCost,
  QualityLine,
  useProvenance,
  WritingLine,
} from './provenance.tsx';
import { TraceSection } from './trace.tsx';

const LAYOUTS: readonly ArchiveLayout[] = ['plain', 'kiro', 'spec-kit', 'agents', 'openspec'];

/**
 * A completed project: who wrote it (a plain notice when no AI model did, else the models in
 * the meta line) and what its model calls cost, description, questionnaire, the codebase it
 * is grounded in (when it is), one tab per document with its cost and what the quality gate
 * still finds in it, the archive, the plan as a board, and the trace (coverage, delivery
 * and findings). With `revision`, every read (provenance, codebase, trace, archive) is pinned
 * to that revision, for a revision other than the current one, and there is no board: the
 * tasks are live work on the current plan. Without it they follow the current revision.
 *
 * @example
 * <CompletedProject status={status} />
 */
export function CompletedProject({
  status,
  revision,
}: {
  status: ProjectCompleted;
  revision?: number | undefined;
}) {
  const { project, metadata } = status;
  const seconds = Math.max(1, Math.round(metadata.generationTimeMs / 1000));
  const { provenance, problem, retry } = useProvenance(status.projectId, revision);
  const who = provenance && authorship(provenance);
  return (
    <>
      <section class="card">
        <p class="status-row">
          <StatusBadge text="Completed" testId="project-status" />
          <span class="meta">
            {typeLabel(project.type)} · {metadata.documentsGenerated} documents ·{' '}
            {metadata.creditsConsumed} credits · generated in {seconds} s
            {who?.kind === 'models' && ` · ${writtenBy(who.engines)}`}
          </span>
        </p>
        {provenance && <ProjectCost provenance={provenance} />}
        {provenance && <WritingLine provenance={provenance} />}
        {who?.kind === 'offline' && <OfflineNotice />}
        {problem && (
          <>
            <p class="hint">
              Which engine wrote these documents, and from which codebase, could not be read:{' '}
              {problem.text}
            </p>
            <button type="button" class="secondary" onClick={retry}>
              Try again
            </button>
          </>
        )}
        <p class="description">{project.description}</p>
        <h2>Questionnaire</h2>
        <dl class="questionnaire">
          {questionnaireEntries(project.questionnaire).map((entry) => (
            <div key={entry.label}>
              <dt>{entry.label}</dt>
              <dd>
                {Array.isArray(entry.value) ? (
                  <ul>
                    {entry.value.map((item) => (
                      <li key={item}>{item}</li>
                    ))}
                  </ul>
                ) : (
                  entry.value
                )}
              </dd>
            </div>
          ))}
        </dl>
      </section>
      {provenance && <CodebaseSection provenance={provenance} />}
      <section class="card" aria-labelledby="documents-heading">
        <h2 id="documents-heading">Documents</h2>
        <DownloadAll projectId={status.projectId} name={project.name} revision={revision} />
        <DocumentTabs documents={project.documents} provenance={provenance} />
      </section>
      {revision === undefined ? (
        <CurrentPlan projectId={status.projectId} />
      ) : (
        <TraceSection projectId={status.projectId} revision={revision} />
      )}
    </>
  );
}

/** The board and the trace of the current revision, sharing the plan's tasks. */
function CurrentPlan({ projectId }: { projectId: string }) {
  const plan: Plan = usePlan(projectId);
  return (
    <>
      <PlanBoard plan={plan} syncHref={syncHref(projectId)} />
      <TraceSection projectId={projectId} plan={plan} />
    </>
  );
}

function DownloadAll({
  projectId,
  name,
  revision,
}: {
  projectId: string;
  name: string;
  revision: number | undefined;
}) {
  const { pgs, signOut } = useSession();
  const [layout, setLayout] = useState<ArchiveLayout>('plain');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | undefined>(undefined);
  const [note, setNote] = useState('');

  const download = async () => {
    setBusy(true);
    setProblem(undefined);
    setNote('Preparing the archive…');
    try {
      const zip = await pgs.projects.archive(projectId, { layout, revision });
      // A copy into a fresh ArrayBuffer: Blob wants a plain buffer, not a view of a shared one.
      const filename =
        revision === undefined
          ? `${projectSlug(name)}.zip`
          : `${projectSlug(name)}-revision-${revision}.zip`;
      saveBlob(new Blob([new Uint8Array(zip)], { type: 'application/zip' }), filename);
      setNote(`Downloaded ${filename} (${layout} layout).`);
    } catch (error) {
      const described = describeError(error);
      if (described.signOut) signOut(described);
      setProblem(described);
      setNote('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="download-all">
      <label for="layout">Layout</label>
      <select
        id="layout"
        value={layout}
        onChange={(event) => setLayout(event.currentTarget.value as ArchiveLayout)}
      >
        {LAYOUTS.map((value) => (
          <option key={value} value={value}>
            {value}
          </option>
        ))}
      </select>
      <button type="button" onClick={download} disabled={busy} aria-busy={busy}>
        Download all
      </button>
      <StatusLine text={note} />
      {problem && <ProblemAlert problem={problem} />}
    </div>
  );
}

/**
 * The documents as tabs (WAI-ARIA tabs pattern, automatic activation): arrow keys move
 * between tabs, Home and End jump to the ends, Tab leaves for the panel. With the
 * provenance, each panel says what its document cost and what the quality gate still finds
 * in it.
 *
 * @example
 * <DocumentTabs documents={project.documents} provenance={provenance} />
 */
export function DocumentTabs({
  documents,
  provenance,
}: {
  documents: ProjectDocument[];
  provenance?: Provenance | undefined;
}) {
  const [selected, setSelected] = useState(0);
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const current = documents[selected];

  const select = (index: number) => {
    const count = documents.length;
    if (count === 0) return;
    const next = (index + count) % count;
    setSelected(next);
    tabs.current[next]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const keys: Record<string, () => void> = {
      ArrowRight: () => select(selected + 1),
      ArrowDown: () => select(selected + 1),
      ArrowLeft: () => select(selected - 1),
      ArrowUp: () => select(selected - 1),
      Home: () => select(0),
      End: () => select(documents.length - 1),
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  };

  if (current === undefined) return <p>This project has no documents.</p>;
  return (
    <div class="tabs">
      <div role="tablist" aria-label="Documents" class="tablist" onKeyDown={onKeyDown}>
        {documents.map((document, index) => (
          <button
            key={document.filename}
            ref={(element) => {
              tabs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`tab-${index}`}
            aria-selected={index === selected}
            aria-controls="document-panel"
            tabIndex={index === selected ? 0 : -1}
            onClick={() => select(index)}
          >
            {documentTitle(document.type)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="document-panel" aria-labelledby={`tab-${selected}`}>
        <DocumentView
          key={current.filename}
          document={current}
          part={provenance && documentPart(provenance, current.type)}
        />
      </div>
    </div>
  );
}

function DocumentView({
  document,
  part,
}: {
  document: ProjectDocument;
  /** The document's provenance, once read (none for a document it does not list). */
  part: PartProvenance | undefined;
}) {
  const html = useMemo(() => renderMarkdown(document.content), [document.content]);
  const [note, setNote] = useState('');
  const copy = async () => {
    setNote(
      (await copyText(document.content))
        ? `Copied ${document.filename} to the clipboard.`
        : 'The browser refused the clipboard: select the text and copy it instead.',
    );
  };
  const download = () => {
    saveBlob(
      new Blob([document.content], { type: 'text/markdown;charset=utf-8' }),
      document.filename,
    );
    setNote(`Downloaded ${document.filename}.`);
  };
  return (
    <>
      <div class="doc-toolbar">
        <span class="filename">{document.filename}</span>
        <button type="button" class="secondary" onClick={copy}>
          Copy
        </button>
        <button type="button" class="secondary" onClick={download}>
          Download
        </button>
        <StatusLine text={note} />
      </div>
      <DocumentCost part={part} />
      <QualityLine findings={part?.findings ?? []} />
      {/* Safe: markdown-it escapes raw HTML (html: false) and refuses script URLs; see markdown.ts. */}
      <div class="markdown" dangerouslySetInnerHTML={{ __html: html }} />
    </>
  );
}
