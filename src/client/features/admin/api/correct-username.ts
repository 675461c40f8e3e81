import { postMemberAction, useMemberAction } from './member-action';

export const correctUsername = ({ memberId, username }: { memberId: string; username: string }) =>
  postMemberAction(memberId, 'tradingview-username', { username });

export const useCorrectUsername = () => useMemberAction(correctUsername);
