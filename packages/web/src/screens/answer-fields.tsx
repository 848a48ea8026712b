import { ANSWER_MAX } from '../clarify.ts';

/** A question as the answer fields show it (a clarifying question, or a project's open one). */
export interface AskedQuestion {
  id: string;
  question: string;
  why: string;
  options?: string[] | undefined;
  recommended: string;
  /** A line above the question ("Open question Q-1", "Assumption A-3"); none for clarify. */
  label?: string | undefined;
}

/**
 * One field per question, labelled by the question and described by why it matters and by
 * its recommended answer, with the common answers as buttons that fill the field and one
 * that puts the recommended answer in (each pressed while the field holds its answer).
 * `idPrefix` keeps ids apart when two sets are on one page.
 *
 * @example
 * <AnswerFields idPrefix="clarify" questions={questions} answers={answers} onChange={setAnswers} />
 */
export function AnswerFields({
  idPrefix,
  questions,
  answers,
  onChange,
}: {
  idPrefix: string;
  questions: readonly AskedQuestion[];
  answers: Readonly<Record<string, string>>;
  onChange: (answers: Record<string, string>) => void;
}) {
  const set = (id: string, value: string) => onChange({ ...answers, [id]: value });
  return (
    <ol class="answers">
      {questions.map((question, index) => {
        const field = `${idPrefix}-answer-${index}`;
        const value = answers[question.id] ?? '';
        return (
          <li key={question.id} class="answer">
            {question.label && <p class="answer-label">{question.label}</p>}
            <label for={field}>{question.question}</label>
            <p id={`${field}-why`} class="hint">
              {question.why}
            </p>
            <input
              id={field}
              type="text"
              maxLength={ANSWER_MAX}
              autoComplete="off"
              aria-describedby={`${field}-why ${field}-recommended`}
              value={value}
              onInput={(event) => set(question.id, event.currentTarget.value)}
            />
            <p id={`${field}-recommended`} class="hint">
              Recommended: {question.recommended}
            </p>
            <fieldset class="answer-options">
              <legend class="sr-only">Answers to: {question.question}</legend>
              {(question.options ?? []).map((option) => (
                <button
                  key={option}
                  type="button"
                  class="secondary"
                  aria-pressed={value === option}
                  onClick={() => set(question.id, option)}
                >
                  {option}
                </button>
              ))}
              {/* Always there (pressed when the field holds it): a button that vanished
                  under the pointer would drop the keyboard focus to the page. */}
              <button
                type="button"
                class="secondary"
                aria-pressed={value === question.recommended}
                onClick={() => set(question.id, question.recommended)}
              >
                Use the recommended answer
              </button>
            </fieldset>
          </li>
        );
      })}
    </ol>
  );
}
