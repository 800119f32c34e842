/** A field's error under it; `id` is what the field's aria-describedby names. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={id} className="rs-field__error">
      {message}
    </p>
  ) : null;
}
