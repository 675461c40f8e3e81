export function PaymentSuccessPage() {
  return <main className="p-10">PaymentSuccessPage</main>;
}
