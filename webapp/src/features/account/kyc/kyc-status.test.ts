import { describe, expect, it } from 'vitest';
import { STATUS_PALETTE, advancedStepView, basicStepView, currentStep, levelKey, submissionStatus } from './kyc-status';

const review = { status: 'review', reason: null };
const passed = { status: 'passed', reason: null };
const failed = { status: 'failed', reason: '  The photo is blurred. ' };

describe('identity step states', () => {
  it('reads a submission status, treating none or an unknown one as not submitted', () => {
    expect(submissionStatus(null)).toBe('none');
    expect(submissionStatus(undefined)).toBe('none');
    expect(submissionStatus({ status: 'archived' })).toBe('none');
    expect(submissionStatus(review)).toBe('review');
    expect(submissionStatus(passed)).toBe('passed');
    expect(submissionStatus(failed)).toBe('failed');
  });

  it('maps every state of the basic step to its badge colour, label and action', () => {
    expect(basicStepView(null)).toEqual({ step: 'basic', status: 'none', palette: 'gray', labelKey: 'kyc.status.none', action: 'submit' });
    expect(basicStepView(review)).toMatchObject({ status: 'review', palette: 'orange', labelKey: 'kyc.status.review', action: 'wait' });
    expect(basicStepView(passed)).toMatchObject({ status: 'passed', palette: 'green', labelKey: 'kyc.status.passed', action: 'done' });
    expect(basicStepView(failed)).toEqual({
      step: 'basic',
      status: 'failed',
      palette: 'red',
      labelKey: 'kyc.status.failed',
      action: 'resubmit',
      reason: 'The photo is blurred.',
    });
  });

  it('keeps the reason only for a failed submission, and drops a blank one', () => {
    expect(basicStepView({ status: 'passed', reason: 'old' }).reason).toBeUndefined();
    expect(basicStepView({ status: 'failed', reason: '   ' }).reason).toBeUndefined();
    expect(basicStepView({ status: 'failed' }).action).toBe('resubmit');
  });

  it('locks the advanced step until basic verification has passed', () => {
    for (const basic of [null, review, failed]) {
      expect(advancedStepView(basic, null)).toMatchObject({ status: 'none', palette: 'gray', action: 'locked' });
    }
    expect(advancedStepView(passed, null)).toMatchObject({ status: 'none', action: 'submit' });
    expect(advancedStepView(passed, review)).toMatchObject({ status: 'review', palette: 'orange', action: 'wait' });
    expect(advancedStepView(passed, passed)).toMatchObject({ status: 'passed', palette: 'green', action: 'done' });
    expect(advancedStepView(passed, failed)).toMatchObject({ status: 'failed', palette: 'red', action: 'resubmit', reason: 'The photo is blurred.' });
  });

  it('still shows an existing advanced submission as it is, but no resubmission without basic', () => {
    expect(advancedStepView(failed, review).action).toBe('wait');
    expect(advancedStepView(failed, passed).action).toBe('done');
    expect(advancedStepView(failed, failed)).toMatchObject({ status: 'failed', action: 'locked', reason: 'The photo is blurred.' });
  });

  it('points at the step to act on next', () => {
    expect(currentStep(basicStepView(null), advancedStepView(null, null))).toBe('basic');
    expect(currentStep(basicStepView(failed), advancedStepView(failed, null))).toBe('basic');
    expect(currentStep(basicStepView(passed), advancedStepView(passed, null))).toBe('advanced');
    expect(currentStep(basicStepView(passed), advancedStepView(passed, failed))).toBe('advanced');
    expect(currentStep(basicStepView(passed), advancedStepView(passed, passed))).toBeNull();
  });

  it('names the identity level', () => {
    expect(levelKey(undefined)).toBe('kyc.level.none');
    expect(levelKey(0)).toBe('kyc.level.none');
    expect(levelKey(1)).toBe('kyc.level.basic');
    expect(levelKey(2)).toBe('kyc.level.advanced');
  });

  it('gives each state its own colour', () => {
    expect(new Set(Object.values(STATUS_PALETTE)).size).toBe(4);
  });
});
