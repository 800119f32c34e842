import { cancelSubscriptionBodySchema, MESSAGES, VALIDATION_MESSAGES } from '@reelsmith/contracts';
import * as Dialog from '@radix-ui/react-dialog';
import { useId, useState } from 'react';
import { toast } from '../toaster.js';
import { errorMessage } from '../api/api-client.js';
import { formatPlanDate } from '../shared/billing/billing-format.js';
import { useSubscription } from '../shared/billing/billing-hooks.js';
import { useApi } from '../services.js';

/**
 * Cancel Subscription: a required reason, a note that access continues until the
 * end date, Keep Subscription and Confirm Cancellation. Opened from the plan section and the Danger Zone.
 */
export function CancelSubscriptionDialog({
  triggerLabel = 'Cancel Subscription',
  triggerClassName = 'rs-button rs-button--danger',
}: {
  triggerLabel?: string;
  triggerClassName?: string;
}) {
  const api = useApi();
  const subscription = useSubscription();
  const endDate = subscription.data?.subscription?.endDate ?? null;
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const reasonId = useId();
  const errorId = useId();
  const valid = cancelSubscriptionBodySchema.safeParse({ reason }).success;
  const showError = !valid && touched;

  const confirm = async () => {
    const parsed = cancelSubscriptionBodySchema.safeParse({ reason });
    if (!parsed.success) {
      setTouched(true);
      return;
    }
    setSubmitting(true);
    try {
      await api.call('cancelSubscription', { body: parsed.data });
      toast.success(MESSAGES.subscriptionCancelled);
      setOpen(false);
      setReason('');
      setTouched(false);
      await subscription.refresh();
    } catch (error) {
      toast.error(errorMessage(error, MESSAGES.cancelSubscriptionFailed));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <button type="button" className={triggerClassName}>
          {triggerLabel}
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="rs-dialog__overlay" />
        <Dialog.Content className="rs-dialog">
          <Dialog.Title className="rs-dialog__title">Cancel Subscription</Dialog.Title>
          <Dialog.Description className="rs-dialog__description">
            Your access continues until the end date of your current billing period
            {endDate ? ` (${formatPlanDate(endDate)})` : ''}. No further payments are taken.
          </Dialog.Description>
          <div className={`rs-field${showError ? ' rs-field--invalid' : ''}`}>
            <label htmlFor={reasonId} className="rs-field__label">
              Reason for cancellation
            </label>
            <textarea
              id={reasonId}
              className="rs-field__input rs-textarea"
              rows={3}
              required
              aria-invalid={showError || undefined}
              aria-describedby={showError ? errorId : undefined}
              value={reason}
              onChange={(e) => {
                setReason(e.target.value);
                if (e.target.value !== '') setTouched(true);
              }}
              onBlur={() => setTouched(true)}
            />
            {showError ? (
              <p id={errorId} className="rs-field__error">
                {VALIDATION_MESSAGES.cancellationReasonRequired}
              </p>
            ) : null}
          </div>
          <div className="rs-dialog__actions">
            <Dialog.Close asChild>
              <button type="button" className="rs-button rs-button--ghost">
                Keep Subscription
              </button>
            </Dialog.Close>
            <button type="button" className="rs-button rs-button--danger" disabled={!valid || submitting} onClick={() => void confirm()}>
              Confirm Cancellation
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
