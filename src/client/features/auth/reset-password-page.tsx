export function ResetPasswordPage() {
  return <main className="p-10">ResetPasswordPage</main>;
}
