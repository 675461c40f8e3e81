export function ForgotPasswordPage() {
  return <main className="p-10">ForgotPasswordPage</main>;
}
