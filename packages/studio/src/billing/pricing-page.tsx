import { Link, useNavigate } from 'react-router';
import { usePricingCurrency } from '../shared/billing/pricing-hooks.js';
import { currencyNote, PlanGrid, SecurePaymentsNote } from './plan-grid.js';
import './billing.css';

/** Pricing: visitors see it too; choosing a plan as a visitor goes to /login. */
export function PricingPage() {
  const [currency] = usePricingCurrency();
  const navigate = useNavigate();
  return (
    <div className="rs-page rs-pricing">
      <div>
        <Link to="/" className="rs-button rs-button--ghost rs-pricing__back">
          ← Back to Studio
        </Link>
      </div>
      <header className="rs-pricing__header">
        <h1 className="rs-page-header__title">Choose Your Perfect Plan</h1>
        <p className="rs-pricing__currency">{currencyNote(currency)}</p>
      </header>
      <PlanGrid currency={currency} onSubscribed={() => navigate('/')} />
      <p className="rs-pricing__taxes">*Exclusive of taxes</p>
      <SecurePaymentsNote />
    </div>
  );
}
