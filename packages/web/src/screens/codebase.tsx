import type { Provenance } from '@pgs/client';
import { useMemo } from 'preact/hooks';
import { type CodebaseView, codebaseView } from '../codebase.ts';

/**
 * The codebase a grounded project (or the revision read) was written from, as its
 * provenance describes it: the repository, the commit, which revision sent the digest, its
 * files and size, the secrets redacted before storage, and the file list in a disclosure.
 * Nothing for a project without one.
 *
 * @example
 * {provenance && <CodebaseSection provenance={provenance} />}
 */
export function CodebaseSection({ provenance }: { provenance: Provenance }) {
  const view = useMemo(() => codebaseView(provenance), [provenance]);
  if (view === undefined) return null;
  return (
    <section class="card" aria-labelledby="codebase-heading">
      <h2 id="codebase-heading">Codebase</h2>
      <p class="hint">
        The documents describe this existing codebase and plan the idea as a change to it. The
        files' text is never served back, only their list.
      </p>
      <dl class="facts">
        <div>
          <dt>Repository</dt>
          <dd>{view.name}</dd>
        </div>
        <div>
          <dt>Commit</dt>
          <dd>
            {view.commit === undefined ? (
              'not given'
            ) : (
              // The whole commit is the tooltip, and the accessible description.
              <code class="commit" title={view.commit.full}>
                {view.commit.short}
              </code>
            )}
          </dd>
        </div>
        <div>
          <dt>Digest</dt>
          <dd>{view.sent}</dd>
        </div>
        <div>
          <dt>Files</dt>
          <dd>
            {view.fileCount}, {view.size}
          </dd>
        </div>
        <div>
          <dt>Secrets</dt>
          <dd>{view.secrets}</dd>
        </div>
      </dl>
      <p class="hint" data-testid="codebase-secrets-note">
        {view.secretsNote}
      </p>
      <FileList view={view} />
    </section>
  );
}

function FileList({ view }: { view: CodebaseView }) {
  return (
    // Closed by default: up to 1,000 rows would push the documents far down. The rows are
    // rendered even while closed, so the browser's find in page reaches a path (and opens
    // the disclosure to show it).
    <details class="codebase-files">
      <summary>The {view.fileCount}: path, size and secrets redacted in each</summary>
      {/* Bounded and scrolled inside, by keyboard too once focused, so a long list never
          outgrows the page; paths wrap rather than widen it on a phone. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the focus */}
      <section class="codebase-scroll" tabIndex={0} aria-label={`Files of ${view.name}`}>
        <table class="codebase-table">
          <caption class="sr-only">Files of {view.name}</caption>
          <thead>
            <tr>
              <th scope="col">Path</th>
              <th scope="col" class="amount">
                Size
              </th>
              <th scope="col" class="amount">
                Secrets redacted
              </th>
            </tr>
          </thead>
          <tbody>
            {view.files.map((file) => (
              // A digest never lists a path twice (the API refuses it).
              <tr key={file.path}>
                <td class="codebase-path">{file.path}</td>
                <td class="amount">{file.size}</td>
                <td class={file.redacted ? 'amount redacted' : 'amount'}>{file.redactions}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </details>
  );
}
