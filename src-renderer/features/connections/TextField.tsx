import { useId } from 'react';

/** A labelled input of the connection form. */
export function TextField({
  label,
  value,
  onChange,
  secret = false,
  type = 'text',
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  secret?: boolean;
  type?: 'text' | 'url';
  placeholder?: string;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={secret ? 'password' : type}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        spellCheck={false}
        autoComplete={secret ? 'new-password' : 'off'}
        {...(placeholder ? { placeholder } : {})}
      />
    </>
  );
}
