import type { ProviderHealth } from '@reelsmith/contracts';
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useId, useState } from 'react';

/** Display names; an unknown name is shown as the server sends it. */
export const PROVIDER_NAMES: Record<string, string> = {
  offline: 'Offline',
  openai: 'OpenAI',
  azure: 'Azure',
  elevenlabs: 'ElevenLabs',
  neural: 'Natural (on this server)',
  wikipedia: 'Wikipedia',
  off: 'Off',
};
export const providerName = (name: string): string => PROVIDER_NAMES[name] ?? name;

/** Short enough for the select at three cards a row (1280 px wide); the label above reads "Switch to". */
export const NO_OTHER_PROVIDER = 'None configured';

export const SWITCH_WARNING = 'This affects all new jobs immediately. Jobs already running keep their current provider.';

export interface ProviderSwitchProps {
  /** "story provider", "voice provider"…: used in the label and the dialog. */
  subject: string;
  current: string;
  available: readonly string[];
  switching: boolean;
  /** Resolves once the switch is done (or has failed and been reported). */
  onConfirm: (provider: string) => Promise<void>;
  /** Runs the target's own health check (GET /providers/health?type=&provider=) before the switch is offered. */
  checkHealth: (provider: string) => Promise<ProviderHealth>;
}

type TargetCheck = { state: 'checking' } | { state: 'healthy'; details: string } | { state: 'failing'; details: string };

export const HEALTH_CHECK_UNAVAILABLE = 'The health check could not run.';

/**
 * A "Switch to" selector whose choice is confirmed in a dialog before anything is sent
 * (pick, confirm in a dialog, switch, reload data). The dialog first runs the
 * target's health check: a failing target is named with its error, and the switch then takes a
 * second, explicit confirmation, since every creator's next video would fail.
 */
export function ProviderSwitch({ subject, current, available, switching, onConfirm, checkHealth }: ProviderSwitchProps) {
  const selectId = useId();
  const [target, setTarget] = useState<string | null>(null);
  const [check, setCheck] = useState<TargetCheck>({ state: 'checking' });
  const [acknowledged, setAcknowledged] = useState(false);
  const others = available.filter((name) => name !== current);

  useEffect(() => {
    if (!target) return;
    let live = true;
    setCheck({ state: 'checking' });
    setAcknowledged(false);
    checkHealth(target).then(
      (health) =>
        live &&
        setCheck(
          health.status === 'healthy' ? { state: 'healthy', details: health.details } : { state: 'failing', details: health.details },
        ),
      () => live && setCheck({ state: 'failing', details: HEALTH_CHECK_UNAVAILABLE }),
    );
    return () => {
      live = false;
    };
  }, [target, checkHealth]);

  const confirm = async () => {
    if (!target) return;
    await onConfirm(target);
    setTarget(null);
  };
  const targetName = target ? providerName(target) : '';

  return (
    <div className="rs-admin-switch">
      <label htmlFor={selectId} className="rs-field__label">
        Switch to
      </label>
      <select
        id={selectId}
        className="rs-field__input rs-select"
        aria-label={`Switch ${subject} to`}
        value=""
        disabled={others.length === 0 || switching}
        onChange={(event) => {
          if (event.target.value) setTarget(event.target.value);
        }}
      >
        <option value="">{others.length === 0 ? NO_OTHER_PROVIDER : 'Choose a provider…'}</option>
        {others.map((name) => (
          <option key={name} value={name}>
            {providerName(name)}
          </option>
        ))}
      </select>
      <Dialog.Root open={target !== null} onOpenChange={(open) => (!open && !switching ? setTarget(null) : undefined)}>
        <Dialog.Portal>
          <Dialog.Overlay className="rs-dialog__overlay" />
          <Dialog.Content className="rs-dialog">
            <Dialog.Title className="rs-dialog__title">Switch {subject}?</Dialog.Title>
            <Dialog.Description className="rs-dialog__description">
              Switch the {subject} from {providerName(current)} to {targetName}. {SWITCH_WARNING}
            </Dialog.Description>
            {check.state === 'checking' ? (
              <p className="rs-admin-switch__check" role="status">
                Checking {targetName}…
              </p>
            ) : check.state === 'healthy' ? (
              <p className="rs-admin-switch__check rs-admin-switch__check--healthy" role="status">
                {targetName} passed its health check: {check.details}
              </p>
            ) : (
              <div className="rs-admin-switch__check rs-admin-switch__check--failing" role="alert">
                <p>
                  <strong>{targetName} failed its health check:</strong> {check.details}
                </p>
                <p>New videos will fail while it is broken; creators are told the service is unavailable and the video is not counted.</p>
                {acknowledged ? (
                  <p>
                    <strong>Are you sure? Every new video will use {targetName} from now on.</strong>
                  </p>
                ) : null}
              </div>
            )}
            <div className="rs-dialog__actions">
              <Dialog.Close asChild>
                <button type="button" className="rs-button rs-button--ghost" disabled={switching}>
                  Cancel
                </button>
              </Dialog.Close>
              {check.state === 'failing' && !acknowledged ? (
                <button type="button" className="rs-button rs-button--danger" onClick={() => setAcknowledged(true)}>
                  Switch anyway
                </button>
              ) : (
                <button
                  type="button"
                  className={`rs-button ${check.state === 'failing' ? 'rs-button--danger' : 'rs-button--primary'}`}
                  disabled={switching || check.state === 'checking'}
                  onClick={() => void confirm()}
                >
                  {switching ? 'Switching…' : check.state === 'failing' ? `Yes, switch to ${targetName}` : 'Switch'}
                </button>
              )}
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </div>
  );
}
