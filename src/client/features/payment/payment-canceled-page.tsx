export function PaymentCanceledPage() {
  return <main className="p-10">PaymentCanceledPage</main>;
}
