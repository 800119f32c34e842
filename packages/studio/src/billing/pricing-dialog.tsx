import * as Dialog from '@radix-ui/react-dialog';
import { usePricingCurrency } from '../shared/billing/pricing-hooks.js';
import { currencyNote, PlanGrid, SecurePaymentsNote } from './plan-grid.js';
import './billing.css';

/** The modal 'Choose Your Plan'; it closes itself once a plan is bought. */
export function PricingDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const [currency] = usePricingCurrency();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="rs-dialog__overlay" />
        <Dialog.Content className="rs-dialog rs-pricing-dialog">
          <div className="rs-pricing-dialog__header">
            <Dialog.Title className="rs-dialog__title">Choose Your Plan</Dialog.Title>
            <Dialog.Close className="rs-icon-button" aria-label="Close">
              ✕
            </Dialog.Close>
          </div>
          <Dialog.Description className="rs-dialog__description">{currencyNote(currency)}</Dialog.Description>
          {open ? <PlanGrid currency={currency} onSubscribed={() => onOpenChange(false)} /> : null}
          <p className="rs-pricing__taxes">Prices are exclusive of taxes.</p>
          <SecurePaymentsNote />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
