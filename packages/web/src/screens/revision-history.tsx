import type { RevisionSummary } from '@pgs/client';
import { ProblemRetry, StatusLine } from '../components.tsx';
import { statusText } from '../format.ts';
import type { Problem } from '../messages.ts';
import { deltaCountsText, excerpt, formatDateTime, revisionCredits } from '../revisions.ts';
import { StatusBadge } from './projects.tsx';

/**
 * A project's revisions, newest first (`revisions.list()`): each one's status, change
 * request, requirement changes, documents changed, credits and dates, and for a completed
 * one a button that shows its documents and what it changed. `errorCodes` holds the
 * `error.code` of the failed ones that were read, so a cancelled revision says so.
 *
 * @example
 * <RevisionHistory history={history} current={3} selected={undefined} onSelect={select} … />
 */
export function RevisionHistory({
  history,
  problem,
  onRetry,
  current,
  selected,
  errorCodes,
  onSelect,
}: {
  history: RevisionSummary[] | undefined;
  problem: Problem | undefined;
  onRetry: () => void;
  /** The current revision: the latest that completed. */
  current: number | undefined;
  /** The revision whose documents are shown, when it is not the current one's. */
  selected: number | undefined;
  errorCodes: ReadonlyMap<number, string>;
  onSelect: (revision: number) => void;
}) {
  return (
    <section class="card" aria-labelledby="history-heading">
      <h2 id="history-heading">History</h2>
      <StatusLine
        text={history === undefined && problem === undefined ? 'Loading the history…' : ''}
      />
      {problem && <ProblemRetry problem={problem} onRetry={onRetry} />}
      {history && (
        // A wide table scrolls inside its region on a phone; the region is reachable by keyboard.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable.
        <section class="table-wrap" aria-labelledby="history-heading" tabIndex={0}>
          <table class="history">
            <caption class="sr-only">Revisions of this project, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Revision</th>
                <th scope="col">Status</th>
                <th scope="col">Change request</th>
                <th scope="col">Requirement changes</th>
                <th scope="col">Documents changed</th>
                <th scope="col">Credits</th>
                <th scope="col">Started</th>
                <th scope="col">Ended</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {history.map((summary) => (
                <Row
                  key={summary.revision}
                  summary={summary}
                  current={summary.revision === current}
                  selected={summary.revision === selected}
                  errorCode={errorCodes.get(summary.revision)}
                  onSelect={onSelect}
                />
              ))}
            </tbody>
          </table>
        </section>
      )}
    </section>
  );
}

function Row({
  summary,
  current,
  selected,
  errorCode,
  onSelect,
}: {
  summary: RevisionSummary;
  current: boolean;
  selected: boolean;
  errorCode: string | undefined;
  onSelect: (revision: number) => void;
}) {
  const { revision, status, changeRequest, documentsChanged } = summary;
  return (
    <tr class={selected ? 'selected' : undefined}>
      <th scope="row">
        {revision}
        {current && <span class="current"> (current)</span>}
      </th>
      <td>
        <StatusBadge text={statusText(status, errorCode)} />
      </td>
      <td class="request-cell">
        {changeRequest === null ? 'Created the project' : excerpt(changeRequest)}
      </td>
      <td>{revision === 1 ? '—' : deltaCountsText(summary.deltas)}</td>
      <td>
        {documentsChanged.length === 0 ? (
          '—'
        ) : (
          <details class="changed-files">
            <summary>
              {documentsChanged.length} {documentsChanged.length === 1 ? 'document' : 'documents'}
            </summary>
            <ul>
              {documentsChanged.map((filename) => (
                <li key={filename}>{filename}</li>
              ))}
            </ul>
          </details>
        )}
      </td>
      <td>{revisionCredits(summary)}</td>
      <td>
        <time dateTime={summary.createdAt}>{formatDateTime(summary.createdAt)}</time>
      </td>
      <td>
        {summary.completedAt === null ? (
          '—'
        ) : (
          <time dateTime={summary.completedAt}>{formatDateTime(summary.completedAt)}</time>
        )}
      </td>
      <td>
        {status === 'completed' && (
          <button
            type="button"
            class="secondary compact"
            aria-pressed={selected}
            onClick={() => onSelect(revision)}
          >
            Show<span class="sr-only"> revision {revision}</span>
          </button>
        )}
      </td>
    </tr>
  );
}
