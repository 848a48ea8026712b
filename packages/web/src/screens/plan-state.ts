import {
  ConflictError,
  type Pgs,
  PreconditionFailedError,
  type Task,
  type TaskDetail,
  type TaskStatus,
  type TaskVersion,
} from '@pgs/client';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { allowedOf, movedText, refusedText, staleText } from '../board.ts';
import { useProblemOf, useSession } from '../hooks.ts';
import type { Problem } from '../messages.ts';

/** Why a card's last move did not happen, shown on the card. */
export interface CardProblem {
  text: string;
  /** A refused move (409): the statuses the task may move to, offered as buttons. */
  allowed: TaskStatus[];
}

/** A completed project's plan as live work, as the board and the coverage matrix share it. */
export interface Plan {
  /** The tasks in plan order; undefined until the first read. */
  tasks: Task[] | undefined;
  /** The list could not be read. */
  problem: Problem | undefined;
  /** Reads the list again (Reload, Try again). */
  reload(): void;
  /** Moves a task to `to`, conditional on the version the page last read; resolves when settled. */
  move(taskId: string, to: TaskStatus): Promise<void>;
  /** The tasks with a move out. */
  busy: ReadonlySet<string>;
  /** The last failed move of a task, by its ID. */
  problems: ReadonlyMap<string, CardProblem>;
  /** What the live region says (a move made, the plan read). */
  announcement: string;
  /** Counts the changes this page made or saw, so that live figures (delivery) are read again. */
  changes: number;
}

/** The cards' problems with `taskId`'s set to `problem`, or cleared without one. */
function withProblem(
  problems: ReadonlyMap<string, CardProblem>,
  taskId: string,
  problem: CardProblem | undefined,
): ReadonlyMap<string, CardProblem> {
  const next = new Map(problems);
  if (problem) next.set(taskId, problem);
  else next.delete(taskId);
  return next;
}

/** A task's list member: its detail without the history. */
function listed({ history: _history, ...task }: TaskDetail): Task {
  return task;
}

/**
 * The plan of a completed project (`projects.tasks.list`), and moves made to it. Each move is
 * conditional (If-Match) on the version of the task the page shows: the ETag of the page's
 * last write of that task, or, before its first, the ETag of a read whose task is still the
 * card's (the listing carries no ETag). A task changed meanwhile (412, or that read finding
 * another version) is shown as it is now with a message; a move the status machine refuses
 * (409) says which moves there are.
 *
 * @example
 * const plan = usePlan(projectId);
 * await plan.move('T-3', 'done');
 */
export function usePlan(projectId: string): Plan {
  const { pgs } = useSession();
  const [tasks, setTasks] = useState<Task[] | undefined>(undefined);
  const [problem, setProblem] = useState<Problem | undefined>(undefined);
  const [reads, setReads] = useState(0);
  const { busy, claim, release } = useBusy();
  const [problems, setProblems] = useState<ReadonlyMap<string, CardProblem>>(new Map());
  const [announcement, setAnnouncement] = useState('');
  const [changes, setChanges] = useState(0);
  // The ETag of the version each task has on the page, when the page wrote or read it alone.
  const etags = useRef(new Map<string, string>());
  const shown = useRef<Task[] | undefined>(undefined);
  shown.current = tasks;

  const described = useProblemOf();

  // `reads` (Reload, Try again) reads the list again; the versions known go with the old list.
  useEffect(() => {
    const controller = new AbortController();
    setProblem(undefined);
    pgs.projects.tasks.list(projectId, {}, { signal: controller.signal }).then(
      (list) => {
        etags.current.clear();
        setTasks(list);
        setProblems(new Map());
        // The first read is what the trace was read with; a later one may differ from it.
        if (reads > 0) {
          setChanges((n) => n + 1);
          setAnnouncement(`Plan read again: ${list.length} tasks.`);
        }
      },
      (error) => {
        if (!controller.signal.aborted) setProblem(described(error));
      },
    );
    return () => controller.abort();
  }, [pgs, projectId, described, reads]);

  const show = useCallback((task: Task, etag: string, cardProblem?: CardProblem) => {
    etags.current.set(task.id, etag);
    setTasks((now) => now?.map((each) => (each.id === task.id ? task : each)));
    setProblems((now) => withProblem(now, task.id, cardProblem));
    setChanges((n) => n + 1);
  }, []);

  const move = useCallback(
    async (taskId: string, to: TaskStatus) => {
      const card = shown.current?.find((task) => task.id === taskId);
      if (card === undefined || card.status === to || !claim(taskId)) return;
      const outcome = await sendMove(pgs, projectId, card, to, etags.current.get(taskId));
      release(taskId);
      if (outcome.kind === 'moved') {
        show(outcome.version.task, outcome.version.etag);
        setAnnouncement(movedText(taskId, card.status, outcome.version.task.status));
      } else if (outcome.kind === 'stale') {
        const text = staleText(taskId);
        if (outcome.version)
          show(outcome.version.task, outcome.version.etag, { text, allowed: [] });
        else etags.current.delete(taskId);
      } else {
        const text =
          outcome.kind === 'refused'
            ? refusedText(taskId, card.status, to, outcome.allowed)
            : described(outcome.error).text;
        const allowed = outcome.kind === 'refused' ? outcome.allowed : [];
        setProblems((now) => withProblem(now, taskId, { text, allowed }));
      }
    },
    [pgs, projectId, show, described, claim, release],
  );

  const reload = useCallback(() => setReads((n) => n + 1), []);
  return { tasks, problem, reload, move, busy, problems, announcement, changes };
}

/**
 * The tasks with a move out. One move of a task at a time: `claim` answers false while one is
 * out, so a second key press is dropped.
 */
function useBusy() {
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const pending = useRef(new Set<string>());
  const claim = useCallback((taskId: string) => {
    if (pending.current.has(taskId)) return false;
    pending.current.add(taskId);
    setBusy((now) => new Set(now).add(taskId));
    return true;
  }, []);
  const release = useCallback((taskId: string) => {
    pending.current.delete(taskId);
    setBusy((now) => {
      const next = new Set(now);
      next.delete(taskId);
      return next;
    });
  }, []);
  return { busy, claim, release };
}

/** What became of a move: made, refused by the status machine, stale, or failed otherwise. */
type MoveOutcome =
  | { kind: 'moved'; version: TaskVersion<Task> }
  | { kind: 'refused'; allowed: TaskStatus[] }
  | { kind: 'stale'; version: TaskVersion<Task> | undefined }
  | { kind: 'failed'; error: unknown };

/**
 * Moves `card`'s task to `to`, on the version `ifMatch` names, or, without one, on the
 * version a read finds if it is still the card's (same `updatedAt` and status): never on a
 * version the person has not seen. A stale version answers the task as it is now, when it
 * can be read.
 */
async function sendMove(
  pgs: Pgs,
  projectId: string,
  card: Task,
  to: TaskStatus,
  ifMatch: string | undefined,
): Promise<MoveOutcome> {
  const tasks = pgs.projects.tasks;
  try {
    let etag = ifMatch;
    if (etag === undefined) {
      const read = await tasks.get(projectId, card.id);
      const version = { task: listed(read.task), etag: read.etag };
      if (read.task.updatedAt !== card.updatedAt || read.task.status !== card.status) {
        return { kind: 'stale', version };
      }
      etag = read.etag;
    }
    const written = await tasks.update(projectId, card.id, { status: to }, { ifMatch: etag });
    return { kind: 'moved', version: { task: listed(written.task), etag: written.etag } };
  } catch (error) {
    if (error instanceof PreconditionFailedError) {
      const read = await tasks.get(projectId, card.id).catch(() => undefined);
      return { kind: 'stale', version: read && { task: listed(read.task), etag: read.etag } };
    }
    if (error instanceof ConflictError && error.code === 'TASK_TRANSITION_NOT_ALLOWED') {
      return { kind: 'refused', allowed: allowedOf(error.details) };
    }
    return { kind: 'failed', error };
  }
}
