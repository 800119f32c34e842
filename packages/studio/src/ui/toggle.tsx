/** An on/off switch: a checkbox with the switch role, drawn as a track and knob. */
export function Toggle({
  id,
  label,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
}) {
  return (
    <label className="rs-toggle" htmlFor={id}>
      <input id={id} type="checkbox" role="switch" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span className="rs-toggle__track" aria-hidden="true">
        <span />
      </span>
      <span className="rs-toggle__label">{label}</span>
    </label>
  );
}
