import type { ReactNode } from 'react';

export function PageHeader({ title, subtitle, actions }: { title: ReactNode; subtitle?: ReactNode; actions?: ReactNode }) {
  return (
    <header className="rs-page-header">
      <div>
        <h1 className="rs-page-header__title">{title}</h1>
        {subtitle ? <p className="rs-page-header__subtitle">{subtitle}</p> : null}
      </div>
      {actions ? <div className="rs-page-header__actions">{actions}</div> : null}
    </header>
  );
}
