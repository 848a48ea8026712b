import type { Task, TaskStatus } from '@pgs/client';
import type { ComponentChildren, VNode } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import {
  BOARD_COLUMNS,
  columnsOf,
  focusTarget,
  keyAction,
  leaseEnd,
  neighbour,
  statusLabel,
} from '../board.ts';
import { ProblemAlert, ProblemRetry, StatusLine } from '../components.tsx';
import { planSummary } from '../delivery.ts';
import { linkText, taskLinks } from '../sync.ts';
import type { CardProblem, Plan } from './plan-state.ts';

const KEYS_ID = 'board-keys';
const SHORTCUTS = 'Shift+ArrowLeft Shift+ArrowRight 1 2 3 4 5';
const cardSelector = (taskId: string) => `[data-task="${CSS.escape(taskId)}"]`;

/**
 * The plan of a completed project as a board (docs/console.md): a column per status, `obsolete`
 * last; each card its task's ID, title, phase, requirements, assignee and lease. A card moves
 * by its buttons (one column left or right) or by keys on the focused card; focus stays on the
 * card in its new column, and a polite live region says what moved. One card is in the Tab
 * order (roving tabindex): arrow keys go from card to card, Tab to the card's buttons.
 *
 * @example
 * <PlanBoard plan={usePlan(projectId)} />
 */
export function PlanBoard({ plan, syncHref }: { plan: Plan; syncHref?: string | undefined }) {
  const { tasks } = plan;
  const { board, columns, tabbable, moveCard, onKeyDown, setActive } = useBoardFocus(plan);
  return (
    <section class="card" aria-labelledby="plan-heading">
      <h2 id="plan-heading">Plan</h2>
      <p class="hint" id={KEYS_ID}>
        The tasks of the implementation plan by status, as people and agents work on them. On a
        task: arrow keys go to the next task, Home and End to the ends of a column; Shift+← and
        Shift+→ move it one column; 1 to 5 move it to To do, In progress, Blocked, Done or Obsolete.
      </p>
      <BoardStatus plan={plan} syncHref={syncHref} />
      {tasks?.length === 0 && <p>The implementation plan has no task table.</p>}
      {tasks && tasks.length > 0 && (
        <div class="board" ref={board}>
          {BOARD_COLUMNS.map((status, index) => (
            <BoardColumn
              key={status}
              status={status}
              cards={(columns[index] ?? []).flatMap((id) => {
                const task = tasks.find((t) => t.id === id);
                return task === undefined
                  ? []
                  : [
                      <TaskCard
                        key={id}
                        task={task}
                        tabbable={id === tabbable}
                        busy={plan.busy.has(id)}
                        problem={plan.problems.get(id)}
                        onMove={(to) => void moveCard(id, to)}
                        onKeyDown={(event) => onKeyDown(event, task)}
                        onFocusIn={() => setActive(id)}
                      />,
                    ];
              })}
            />
          ))}
        </div>
      )}
    </section>
  );
}

/**
 * The board's roving focus: which card is in the Tab order, the keys on a focused card, and
 * a moved card keeping the focus in its new column.
 */
function useBoardFocus(plan: Plan) {
  const { tasks } = plan;
  const board = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState<string | undefined>(undefined);
  const [focusOn, setFocusOn] = useState<{ taskId: string } | undefined>(undefined);
  const columns = useMemo(() => (tasks ? columnsOf(tasks) : []), [tasks]);
  const current = active !== undefined && tasks?.some((t) => t.id === active) ? active : undefined;
  const tabbable = current ?? columns.flat()[0];

  // After a render, so that a card that changed columns is focused where it now is.
  useEffect(() => {
    if (focusOn) board.current?.querySelector<HTMLElement>(cardSelector(focusOn.taskId))?.focus();
  }, [focusOn]);

  const moveCard = async (taskId: string, to: TaskStatus) => {
    const card = () => board.current?.querySelector(cardSelector(taskId));
    const hadFocus = card()?.contains(document.activeElement) ?? false;
    setActive(taskId);
    await plan.move(taskId, to);
    // Keep the mover's place: the card (remounted in its new column) gets the focus back,
    // unless the person went elsewhere while the request was out.
    const now = document.activeElement;
    if (hadFocus && (now === null || now === document.body || card()?.contains(now))) {
      setFocusOn({ taskId });
    }
  };

  const onKeyDown = (event: KeyboardEvent, task: Task) => {
    if (event.target !== event.currentTarget) return;
    const action = keyAction(event, task.status);
    if (action === undefined) return;
    event.preventDefault();
    if (action.kind === 'move') {
      void moveCard(task.id, action.to);
      return;
    }
    const target = focusTarget(columns, task.id, action.to);
    if (target === undefined) return;
    setActive(target);
    setFocusOn({ taskId: target });
  };

  return { board, columns, tabbable, moveCard, onKeyDown, setActive };
}

/** The plan's delivery and Reload, the live region (loading, what moved), a failed read. */
function BoardStatus({ plan, syncHref }: { plan: Plan; syncHref: string | undefined }) {
  const { tasks, problem, reload } = plan;
  return (
    <>
      {tasks && (
        <p class="board-bar">
          <span data-testid="plan-summary">{planSummary(tasks)}</span>
          <button type="button" class="secondary" onClick={reload}>
            Reload the plan
          </button>
          {syncHref && tasks.length > 0 && <a href={syncHref}>Sync to a tracker</a>}
        </p>
      )}
      <StatusLine
        text={tasks === undefined && !problem ? 'Loading the plan…' : plan.announcement}
      />
      {problem && <ProblemRetry problem={problem} onRetry={reload} />}
    </>
  );
}

/** A column of the board: its status and count as a heading, then its cards or "No tasks.". */
function BoardColumn({ status, cards }: { status: TaskStatus; cards: VNode[] }) {
  const heading = `column-${status}`;
  return (
    <section class={`board-column board-${status}`} aria-labelledby={heading}>
      <h3 id={heading}>
        {statusLabel(status)} ({cards.length})
      </h3>
      {cards.length === 0 ? (
        <p class="hint">No tasks.</p>
      ) : (
        <ul class="board-cards" aria-labelledby={heading}>
          {cards}
        </ul>
      )}
    </section>
  );
}

/** A task's card: its name, facts and moves, and why its last move did not happen. */
function TaskCard({
  task,
  tabbable,
  busy,
  problem,
  onMove,
  onKeyDown,
  onFocusIn,
}: {
  task: Task;
  tabbable: boolean;
  busy: boolean;
  problem: CardProblem | undefined;
  onMove: (to: TaskStatus) => void;
  onKeyDown: (event: KeyboardEvent) => void;
  onFocusIn: () => void;
}) {
  const base = `task-${task.id}`;
  const tabIndex = tabbable ? 0 : -1;
  const moves = [neighbour(task.status, -1), neighbour(task.status, 1)];
  // The moves a refusal names, but for those the card's own buttons already offer.
  const offered = (problem?.allowed ?? []).filter(
    (status) => status !== task.status && !moves.includes(status),
  );
  const press = (to: TaskStatus) => {
    if (!busy) onMove(to);
  };
  return (
    <li
      class="task-card"
      data-task={task.id}
      tabIndex={tabIndex}
      aria-labelledby={`${base}-name`}
      aria-describedby={`${base}-facts ${KEYS_ID}`}
      aria-keyshortcuts={SHORTCUTS}
      aria-busy={busy}
      onKeyDown={onKeyDown}
      onFocusIn={onFocusIn}
    >
      <p class="task-name" id={`${base}-name`}>
        <span class="task-id">{task.id}</span> {task.title}
      </p>
      <TaskFacts task={task} id={`${base}-facts`} tabIndex={tabIndex} />
      <div class="task-moves">
        {moves.map(
          (to, index) =>
            to && (
              <button
                key={to}
                type="button"
                class="secondary"
                tabIndex={tabIndex}
                aria-label={`Move ${task.id} to ${statusLabel(to)}`}
                aria-disabled={busy}
                onClick={() => press(to)}
              >
                {index === 0 && <span aria-hidden="true">← </span>}
                {statusLabel(to)}
                {index === 1 && <span aria-hidden="true"> →</span>}
              </button>
            ),
        )}
      </div>
      {problem && (
        <div class="task-problem">
          <ProblemAlert problem={{ kind: 'conflict', text: problem.text }} />
          {offered.map((to) => (
            <button
              key={to}
              type="button"
              class="secondary"
              tabIndex={tabIndex}
              aria-disabled={busy}
              onClick={() => press(to)}
            >
              Move {task.id} to {statusLabel(to)}
            </button>
          ))}
        </div>
      )}
    </li>
  );
}

/** A card's facts: phase, requirements, assignee, lease and the issues it is linked to. */
function TaskFacts({ task, id, tabIndex }: { task: Task; id: string; tabIndex: number }) {
  const links = taskLinks(task);
  return (
    <dl class="task-facts" id={id}>
      <Fact label="Phase">{task.phase || '—'}</Fact>
      <Fact label="Requirements">
        {task.requirements.length > 0 ? task.requirements.join(', ') : 'none'}
      </Fact>
      <Fact label="Assignee">{task.assignee ?? 'unassigned'}</Fact>
      {task.lease && (
        <Fact label="Lease" testId="task-lease">
          {task.lease.agent} until{' '}
          <time dateTime={task.lease.expiresAt}>{leaseEnd(task.lease.expiresAt, Date.now())}</time>
        </Fact>
      )}
      {links.length > 0 && (
        <Fact label="Issues">
          {links.map((link, index) => (
            <span key={`${link.connectionId}-${link.externalId}`}>
              {index > 0 && ', '}
              <a
                href={link.url}
                target="_blank"
                rel="noopener noreferrer"
                tabIndex={tabIndex}
                aria-label={`${task.id} on ${linkText(link)}`}
              >
                {linkText(link)}
              </a>
            </span>
          ))}
        </Fact>
      )}
    </dl>
  );
}

/** One fact of a card, on a line of its own: "Phase M1 Walking skeleton". */
function Fact({
  label,
  testId,
  children,
}: {
  label: string;
  testId?: string;
  children: ComponentChildren;
}) {
  return (
    <div>
      <dt>{label}</dt> <dd data-testid={testId}>{children}</dd>
    </div>
  );
}
