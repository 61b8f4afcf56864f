/**
 * Put inside an antd <Form> whose buttons live in a Modal footer: with a submit button in the
 * form, Enter in a field submits it (the browser's implicit submission), like the OK button.
 */
export function EnterSubmits() {
  return <button type="submit" hidden aria-hidden tabIndex={-1} />;
}
