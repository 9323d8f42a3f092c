/**
 * The identity tab's state logic, free of React: which state each verification step is in, the
 * badge that shows it and the action the user can take next.
 *
 * | submission | badge | action |
 * |---|---|---|
 * | none | grey "Not submitted" | `submit` (advanced: `locked` until basic has passed) |
 * | `review` | amber "Under review" | `wait` |
 * | `passed` | green "Passed" | `done` |
 * | `failed` | red "Failed" + the operator's reason | `resubmit` (advanced: `locked` unless basic passed) |
 *
 * @module
 */

/** The state of one verification step. */
export type KycStatus = 'none' | 'review' | 'passed' | 'failed';

/** What the user can do on a step. */
export type StepAction = 'submit' | 'resubmit' | 'wait' | 'done' | 'locked';

/** The two steps, in order. */
export type StepId = 'basic' | 'advanced';

/** The fields of a submission this module reads (the API's `Submission`). */
export interface SubmissionLike {
  status: string;
  reason?: string | null;
}

/** How one step is shown. */
export interface StepView {
  step: StepId;
  status: KycStatus;
  /** Chakra colour palette of the status badge. */
  palette: 'gray' | 'orange' | 'green' | 'red';
  /** i18n key of the badge text. */
  labelKey: `kyc.status.${KycStatus}`;
  action: StepAction;
  /** The operator's reason, for a failed submission. */
  reason?: string;
}

/** Badge colour of each state. */
export const STATUS_PALETTE: Record<KycStatus, StepView['palette']> = {
  none: 'gray',
  review: 'orange',
  passed: 'green',
  failed: 'red',
};

/** The state of a submission (`none` when there is none or its status is unknown). */
export function submissionStatus(submission: SubmissionLike | null | undefined): KycStatus {
  switch (submission?.status) {
    case 'review':
      return 'review';
    case 'passed':
      return 'passed';
    case 'failed':
      return 'failed';
    default:
      return 'none';
  }
}

function view(step: StepId, submission: SubmissionLike | null | undefined, locked: boolean): StepView {
  const status = submissionStatus(submission);
  const action: StepAction =
    status === 'review' ? 'wait' : status === 'passed' ? 'done' : locked ? 'locked' : status === 'failed' ? 'resubmit' : 'submit';
  const reason = status === 'failed' ? submission?.reason?.trim() || undefined : undefined;
  return { step, status, palette: STATUS_PALETTE[status], labelKey: `kyc.status.${status}`, action, ...(reason ? { reason } : {}) };
}

/** The basic step: always open to a first submission or a resubmission. */
export function basicStepView(basic: SubmissionLike | null | undefined): StepView {
  return view('basic', basic, false);
}

/**
 * The advanced step: it can only be submitted once basic verification has passed. A submission
 * that already exists is still shown as it is (under review, passed, failed).
 */
export function advancedStepView(basic: SubmissionLike | null | undefined, advanced: SubmissionLike | null | undefined): StepView {
  return view('advanced', advanced, submissionStatus(basic) !== 'passed');
}

/** The step the user should act on next, or `null` when both have passed. */
export function currentStep(basic: StepView, advanced: StepView): StepId | null {
  if (basic.status !== 'passed') return 'basic';
  if (advanced.status !== 'passed') return 'advanced';
  return null;
}

/** The identity level (0 none, 1 basic, 2 advanced) as an i18n key. */
export function levelKey(level: number | null | undefined): 'kyc.level.none' | 'kyc.level.basic' | 'kyc.level.advanced' {
  if (level !== null && level !== undefined && level >= 2) return 'kyc.level.advanced';
  if (level === 1) return 'kyc.level.basic';
  return 'kyc.level.none';
}
