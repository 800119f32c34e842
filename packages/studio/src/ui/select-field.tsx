import { useId } from 'react';
import { Field } from './field-error.js';

export interface SelectOption {
  value: string | number;
  label: string;
  disabled?: boolean;
}

/**
 * A labelled select over its options, with the field's message under it; `onChange` gets the chosen value as the select holds it
 * (a string). Without an `id` the field makes its own.
 */
export function SelectField({
  id: givenId,
  label,
  error,
  value,
  options,
  onChange,
  onBlur,
}: {
  id?: string;
  label: string;
  error?: string | undefined;
  value: string | number;
  options: readonly SelectOption[];
  onChange(value: string): void;
  onBlur?: () => void;
}) {
  const ownId = useId();
  const id = givenId ?? ownId;
  return (
    <Field id={id} label={label} error={error}>
      <select id={id} className="rs-field__input rs-select" value={value} onChange={(e) => onChange(e.target.value)} onBlur={onBlur}>
        {options.map((option) => (
          <option key={option.value} value={option.value} disabled={option.disabled}>
            {option.label}
          </option>
        ))}
      </select>
    </Field>
  );
}
