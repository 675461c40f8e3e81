// Marketing copy below the hero. Headings are verbatim as the product words them.
import type { IndicatorKind } from './charts/indicator-chart';

export type FeatureBlock = { title: string; kind: IndicatorKind; text: string; points: readonly string[] };

export const FEATURE_BLOCKS: readonly FeatureBlock[] = [
  {
    title: 'Pro Toolkits',
    kind: 'pro-toolkits',
    text: 'A complete set of invite-only TradingView indicators that work together: structure, liquidity, momentum and trend on one chart instead of a dozen scripts fighting for space.',
    points: ['Order blocks, fair value gaps and smart money concepts drawn automatically', 'Signals that are confirmed on bar close and never repaint', 'Alerts for every signal, so you do not have to watch the screen'],
  },
  {
    title: 'Designed for Any Setup',
    kind: 'any-setup',
    text: 'Crypto, forex, stocks, indices, futures or gold; one-minute scalps or weekly swings. Every tool adapts to the volatility of the market you are looking at.',
    points: ['Works on any market and timeframe TradingView charts', 'Sensible defaults, with every setting documented', 'Runs on TradingView’s free plan, desktop or mobile'],
  },
  {
    title: 'Built to Succeed',
    kind: 'built-to-succeed',
    text: 'Indicators are only half of it. Members get step-by-step strategy guides, trade setups from the community and a team that answers questions.',
    points: ['Strategy blueprints with entries, exits and risk rules', 'Regular product updates at no extra cost', 'Support and a VIP Discord community'],
  },
];

export type CarouselCard = { title: string; kind: IndicatorKind; text: string };

export const CAROUSEL_TITLE = 'Advanced Trading Features';

export const CAROUSEL_CARDS: readonly CarouselCard[] = [
  { title: 'Order Blocks', kind: 'order-blocks', text: 'Marks institutional supply and demand zones and fades them once price has mitigated them.' },
  { title: 'Fair Value Gaps', kind: 'fair-value-gaps', text: 'Highlights the imbalances left by fast moves and tracks which gaps have been filled.' },
  { title: 'Smart Money Oscillator', kind: 'smart-money-oscillator', text: 'Measures the momentum behind a move and flags divergences where larger players step in.' },
  { title: 'Adaptive Trend Tracker', kind: 'adaptive-trend-tracker', text: 'A trend line that adapts to volatility: quick to react in trends, calm in ranges.' },
  { title: 'Swing Signals', kind: 'swing-signals', text: 'Buy and sell labels at confirmed swing points, with adjustable sensitivity and no repainting.' },
  { title: 'Reversal Signals', kind: 'reversal-signals', text: 'Spots exhaustion after extended moves and marks potential turning points once confirmed.' },
  { title: 'Adaptive Cloud', kind: 'adaptive-cloud', text: 'A volatility-aware cloud that shows trend direction and strength at a glance.' },
  { title: 'Smart Money Concepts', kind: 'smart-money-concepts', text: 'Break of structure, change of character, liquidity sweeps and premium and discount zones.' },
  { title: 'Screener Dashboard', kind: 'screener-dashboard', text: 'Trend, momentum and signals for many assets and timeframes in one table on your chart.' },
  { title: 'Beyond Indicators', kind: 'beyond-indicators', text: '40+ further features, alerts for every signal and guides that show how to combine them.' },
];

export type Testimonial = { name: string; rating: number; text: string };

export const TESTIMONIALS: readonly Testimonial[] = [
  {
    name: 'Marcus T.',
    rating: 5,
    text: 'I trade NQ futures on the 5-minute chart. The order block zones land where I used to draw levels by hand, which saves me about twenty minutes of prep every morning.',
  },
  {
    name: 'Priya S.',
    rating: 5,
    text: 'What sold me is that the swing signals do not repaint. What I saw on two years of EUR/USD history matched what I got live over the following month.',
  },
  {
    name: 'Daniel K.',
    rating: 5,
    text: 'I use the screener dashboard to check trend alignment on twelve crypto pairs before I open a single chart. I take fewer trades now, which was the point.',
  },
  {
    name: 'Sofia R.',
    rating: 5,
    text: 'I asked support about the oscillator settings and got a clear answer with screenshots the same afternoon. The strategy guides are better than I expected.',
  },
  {
    name: 'James O.',
    rating: 5,
    text: 'On the quarterly plan since spring. The adaptive cloud keeps me out of choppy ranges on gold. I still lose trades, but fewer of them come from fighting the trend.',
  },
  {
    name: 'Lena W.',
    rating: 5,
    text: 'Activation was painless: paid, set a password, entered my TradingView username, and the scripts were under Invite-only within the hour. Clean on the chart, too.',
  },
];

export type FaqItem = { question: string; answer: string };

export const FAQ_ITEMS: readonly FaqItem[] = [
  {
    question: 'What do I get with a subscription?',
    answer:
      'Access to all of our premium invite-only indicators on TradingView, the strategy and update guides, trading setups and ideas, active product updates, support and the VIP Discord community. Every plan includes everything; plans differ only in how you pay.',
  },
  {
    question: 'How do I get access after paying?',
    answer:
      'Right after checkout you create your account by choosing a password, then enter your TradingView username. We grant the indicators to that username automatically, usually within minutes. In TradingView open Indicators, then Invite-only scripts, and add them to your chart.',
  },
  {
    question: 'Can I cancel at any time?',
    answer:
      'Yes. You can cancel at any time from your account settings, with no cancellation fee. You keep full access until the end of the period you have already paid for, and you are not charged again.',
  },
  {
    question: 'Do I need a paid TradingView plan?',
    answer:
      'No. The indicators work with a free TradingView account. TradingView’s own plan limits still apply, for example how many indicators you can add to one chart.',
  },
  {
    question: 'Which markets and timeframes are supported?',
    answer:
      'Anything TradingView can chart: crypto, forex, stocks, indices, futures and commodities, on every timeframe from seconds to months.',
  },
  {
    question: 'Can I switch plans later?',
    answer:
      'Yes. Members can move between Monthly, Quarterly and Yearly. Before you confirm we show the credit for your unused time, the new charge and the total due today.',
  },
  {
    question: 'Are the indicators financial advice?',
    answer:
      'No. They are analysis tools for educational purposes and do not tell you what to buy or sell. Trading involves risk; only trade with money you can afford to lose.',
  },
];
