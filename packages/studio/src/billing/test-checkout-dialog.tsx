import type { OrderResponse, PaymentHandlerResult } from '@reelsmith/contracts';
import * as Dialog from '@radix-ui/react-dialog';
import { useState } from 'react';
import { errorMessage } from '../api/api-client.js';
import { useApi } from '../services.js';
import { formatAmount } from '../shared/billing/billing-format.js';

export interface TestCheckoutRequest {
  order: NonNullable<OrderResponse['order']>;
  planName: string;
  /** Called once: the signed result after "Pay successfully", or null when the tester closes the checkout. */
  settle(result: PaymentHandlerResult | null): void;
}

/**
 * The built-in checkout used when no Razorpay keys are configured. The server signs the payment
 * exactly as Razorpay does, so the verification that follows is the real one.
 */
export function TestCheckoutDialog({ request }: { request: TestCheckoutRequest | null }) {
  const api = useApi();
  const [busy, setBusy] = useState<'success' | 'failure' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  if (!request) return null;
  const { order } = request;

  const pay = async (outcome: 'success' | 'failure') => {
    setBusy(outcome);
    setFailure(null);
    try {
      const result = await api.call('testCheckoutPay', { body: { orderId: order.orderId, outcome } });
      request.settle(result);
    } catch (error) {
      setFailure(errorMessage(error, 'The test payment failed.'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Dialog.Root
      open
      onOpenChange={(open) => {
        if (!open && busy === null) request.settle(null);
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="rs-dialog__overlay rs-dialog__overlay--top" />
        <Dialog.Content className="rs-dialog rs-test-checkout">
          <div className="rs-test-checkout__header">
            <Dialog.Title className="rs-dialog__title">Test checkout</Dialog.Title>
            <span className="rs-chip rs-chip--test-mode">TEST MODE</span>
          </div>
          <Dialog.Description className="rs-dialog__description">
            No real payment is taken: Razorpay keys are not configured on this server. Choose how this payment ends.
          </Dialog.Description>
          <dl className="rs-test-checkout__summary">
            <dt>Plan</dt>
            <dd>{request.planName}</dd>
            <dt>Amount</dt>
            <dd>{formatAmount(order.amount / 100, order.currency)}</dd>
            <dt>Order</dt>
            <dd className="rs-test-checkout__order">{order.orderId}</dd>
          </dl>
          {failure ? (
            <p role="alert" className="rs-alert rs-alert--error">
              {failure}
            </p>
          ) : null}
          <div className="rs-dialog__actions">
            <button type="button" className="rs-button rs-button--danger" disabled={busy !== null} onClick={() => void pay('failure')}>
              {busy === 'failure' ? 'Failing…' : 'Fail payment'}
            </button>
            <button type="button" className="rs-button rs-button--primary" disabled={busy !== null} onClick={() => void pay('success')}>
              {busy === 'success' ? 'Paying…' : 'Pay successfully'}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
