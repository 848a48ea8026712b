import type { ProjectPage } from '@pgs/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { PageHeading, ProblemRetry, StatusLine } from '../components.tsx';
import { formatCost } from '../cost.ts';
import { type StatusText, statusText, typeLabel } from '../format.ts';
import { useProblemOf, useSession } from '../hooks.ts';
import type { Problem } from '../messages.ts';
import { NEW_PROJECT_HREF, projectHref } from '../routes.ts';

/** Projects per page of the list. @example pgs.projects.list({ limit: PAGE_SIZE }); */
export const PAGE_SIZE = 20;

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The key's projects, newest first, a page at a time (cursor paging of the listing
 * endpoint: a stack of cursors makes "Previous page" exact), each with what its model calls
 * have cost so far.
 *
 * @example
 * <ProjectsScreen />
 */
export function ProjectsScreen() {
  const { page, first, problem, loading, reload, next, previous } = useProjectPages();
  return (
    <>
      <PageHeading>Projects</PageHeading>
      {problem && <ProblemRetry problem={problem} onRetry={reload} />}
      <StatusLine text={loading ? 'Loading projects…' : ''} />
      {page && page.data.length === 0 && first && (
        <p class="empty">
          No projects yet. <a href={NEW_PROJECT_HREF}>Generate your first project</a>.
        </p>
      )}
      {page && page.data.length > 0 && <ProjectsTable projects={page.data} />}
      <div class="pager">
        {!first && (
          <button type="button" class="secondary" onClick={previous} disabled={loading}>
            Previous page
          </button>
        )}
        {page?.hasMore && (
          <button type="button" class="secondary" onClick={next} disabled={loading}>
            Next page
          </button>
        )}
      </div>
    </>
  );
}

/** The page shown (`undefined` before the first read), how it was read, and the paging. */
interface ProjectPages {
  page: ProjectPage | undefined;
  /** The page shown is the first one. */
  first: boolean;
  problem: Problem | undefined;
  loading: boolean;
  /** Try again: the same request once more. */
  reload: () => void;
  next: () => void;
  previous: () => void;
}

/** Reads a page of the listing at a time; paging moves the focus to the heading. */
function useProjectPages(): ProjectPages {
  const { pgs } = useSession();
  const problemOf = useProblemOf();
  // cursors[i] is the `startingAfter` of page i; the first page has none.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [page, setPage] = useState<ProjectPage | undefined>(undefined);
  const [problem, setProblem] = useState<Problem | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [reads, setReads] = useState(0);
  const cursor = cursors.at(-1);
  // Paging removes the button that was pressed on the last page: focus goes to the heading.
  const paged = useRef(false);

  // `reads` (Try again) re-runs the same request.
  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    setProblem(undefined);
    pgs.projects
      .list({ limit: PAGE_SIZE, startingAfter: cursor }, { signal: controller.signal })
      .then(
        (next) => {
          setPage(next);
          setLoading(false);
          if (paged.current) {
            paged.current = false;
            document.querySelector<HTMLElement>('main h1')?.focus();
          }
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setProblem(problemOf(error));
          setLoading(false);
        },
      );
    return () => controller.abort();
  }, [pgs, cursor, problemOf, reads]);

  const next = () => {
    const last = page?.data.at(-1);
    if (!last) return;
    paged.current = true;
    setCursors([...cursors, last.projectId]);
  };
  const previous = () => {
    paged.current = true;
    setCursors(cursors.slice(0, -1));
  };
  const reload = () => setReads((n) => n + 1);
  return { page, first: cursors.length === 1, problem, loading, reload, next, previous };
}

/** A page of projects: name (a link to it), type, status, creation and model cost. */
function ProjectsTable({ projects }: { projects: ProjectPage['data'] }) {
  return (
    <div class="table-wrap">
      <table aria-label="Projects">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Status</th>
            <th scope="col">Created</th>
            <th scope="col" class="amount">
              Model cost
            </th>
          </tr>
        </thead>
        <tbody>
          {projects.map((project) => (
            <tr key={project.projectId}>
              <td>
                {/* Until the definition names it, a project reads as the start of its idea. */}
                <a href={projectHref(project.projectId)}>
                  {project.name ?? <span class="idea-excerpt">{project.ideaExcerpt}</span>}
                </a>
              </td>
              <td>{typeLabel(project.type)}</td>
              <td>
                <StatusBadge text={statusText(project.status, project.errorCode)} />
              </td>
              <td>
                <time dateTime={project.createdAt}>
                  {dateFormat.format(new Date(project.createdAt))}
                </time>
              </td>
              {/* So far for a project in progress; every run, its revisions included. */}
              <td class="amount">{formatCost(project.costUsd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A status as a coloured word (the colour repeats the word, never replaces it).
 *
 * @example
 * <StatusBadge text="Completed" />
 */
export function StatusBadge({ text, testId }: { text: StatusText; testId?: string }) {
  return (
    <span class={`status status-${text.toLowerCase().replace(' ', '-')}`} data-testid={testId}>
      {text}
    </span>
  );
}
