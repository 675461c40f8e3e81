import { postMemberAction, useMemberAction } from './member-action';

export const correctUsername = ({ memberId, username }: { memberId: string; username: string }) =>
  postMemberAction(memberId, 'tradingview-username', { username });

export const useCorrectUsername = () => useMemberAction(correctUsername);

/** Moves a username another member holds to this member (decision 048; audited on both). */
export const transferUsername = ({ memberId, username }: { memberId: string; username: string }) =>
  postMemberAction(memberId, 'tradingview-username/transfer', { username });

export const useTransferUsername = () => useMemberAction(transferUsername);
