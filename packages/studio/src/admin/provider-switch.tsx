import * as Dialog from '@radix-ui/react-dialog';
import { useId, useState } from 'react';

/** Display names; an unknown name is shown as the server sends it. */
export const PROVIDER_NAMES: Record<string, string> = {
  offline: 'Offline',
  openai: 'OpenAI',
  azure: 'Azure',
  elevenlabs: 'ElevenLabs',
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
}

/**
 * A "Switch to" selector whose choice is confirmed in a dialog before anything is sent (spec
 * section 4, Admin: pick, confirm in a dialog, switch, reload data).
 */
export function ProviderSwitch({ subject, current, available, switching, onConfirm }: ProviderSwitchProps) {
  const selectId = useId();
  const [target, setTarget] = useState<string | null>(null);
  const others = available.filter((name) => name !== current);

  const confirm = async () => {
    if (!target) return;
    await onConfirm(target);
    setTarget(null);
  };

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
              Switch the {subject} from {providerName(current)} to {target ? providerName(target) : ''}. {SWITCH_WARNING}
            </Dialog.Description>
            <div className="rs-dialog__actions">
              <Dialog.Close asChild>
                <button type="button" className="rs-button rs-button--ghost" disabled={switching}>
                  Cancel
                </button>
              </Dialog.Close>
              <button type="button" className="rs-button rs-button--primary" disabled={switching} onClick={() => void confirm()}>
                {switching ? 'Switching…' : 'Switch'}
              </button>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </div>
  );
}
