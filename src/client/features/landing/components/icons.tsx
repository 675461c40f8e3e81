// The landing page's icons as inline SVG. Hand-drawn rather than imported from the icon library:
// shared icon modules become separate chunks, and each is one more request before first paint.
import type { ReactNode } from 'react';

type IconProps = { className?: string };

function Icon({ className = 'h-5 w-5', children, filled = false }: IconProps & { children: ReactNode; filled?: boolean }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={className}
      fill={filled ? 'currentColor' : 'none'}
      stroke={filled ? 'none' : 'currentColor'}
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export const CheckIcon = (props: IconProps) => <Icon {...props}><path d="M4 12.5l5 5L20 6.5" /></Icon>;
export const ChevronDownIcon = (props: IconProps) => <Icon {...props}><path d="M6 9l6 6 6-6" /></Icon>;
export const ChevronLeftIcon = (props: IconProps) => <Icon {...props}><path d="M15 18l-6-6 6-6" /></Icon>;
export const ChevronRightIcon = (props: IconProps) => <Icon {...props}><path d="M9 18l6-6-6-6" /></Icon>;
export const ArrowRightIcon = (props: IconProps) => <Icon {...props}><path d="M5 12h14M13 6l6 6-6 6" /></Icon>;
export const CloseIcon = (props: IconProps) => <Icon {...props}><path d="M6 6l12 12M18 6L6 18" /></Icon>;
export const MenuIcon = (props: IconProps) => <Icon {...props}><path d="M4 7h16M4 12h16M4 17h16" /></Icon>;
export const MailIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <path d="M3 7l9 6 9-6" />
  </Icon>
);
export const ChatIcon = (props: IconProps) => <Icon {...props}><path d="M21 12a8.5 8.5 0 0 1-12.4 7.5L3 21l1.5-5.6A8.5 8.5 0 1 1 21 12z" /></Icon>;
export const BookIcon = (props: IconProps) => <Icon {...props}><path d="M4 5a2 2 0 0 1 2-2h13v16H6a2 2 0 0 0-2 2V5zM4 19a2 2 0 0 1 2-2h13" /></Icon>;
export const QuestionIcon = (props: IconProps) => <Icon {...props}><path d="M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6v.6M12 17h.01" /></Icon>;
export const ClockIcon = (props: IconProps) => <Icon {...props}><path d="M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 7v5l3 2" /></Icon>;
export const CommunityIcon = (props: IconProps) => <Icon {...props}><path d="M3 5h13v9H8l-5 4V5zM8 17v1h8l5 3V9h-5" /></Icon>;
export const ShieldCheckIcon = (props: IconProps) => <Icon {...props}><path d="M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6l8-3zM9 12l2 2 4-4" /></Icon>;
export const LockIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <path d="M8 11V7a4 4 0 0 1 8 0v4" />
  </Icon>
);
export const BoltIcon = (props: IconProps) => <Icon {...props}><path d="M13 2L4 14h7l-1 8 9-12h-7l1-8z" /></Icon>;
export const RenewIcon = (props: IconProps) => <Icon {...props}><path d="M20 11a8 8 0 0 0-14.9-4M4 3v4h4M4 13a8 8 0 0 0 14.9 4M20 21v-4h-4" /></Icon>;
export const CardIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="2" y="5" width="20" height="14" rx="2" />
    <path d="M2 10h20" />
  </Icon>
);
export const VerifiedIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="12" cy="12" r="9" />
    <path d="M8.5 12l2.5 2.5 4.5-5" />
  </Icon>
);
export const SparkIcon = (props: IconProps) => <Icon {...props} filled><path d="M12 2l2.2 6.8L21 11l-6.8 2.2L12 20l-2.2-6.8L3 11l6.8-2.2z" /></Icon>;
export const CrownIcon = (props: IconProps) => <Icon {...props}><path d="M3 8l4.5 4L12 5l4.5 7L21 8l-2 11H5z" /></Icon>;
