import type { BanMemberRequest } from '@shared/admin-contract';
import { postMemberAction, useMemberAction } from './member-action';

export const banMember = ({ memberId, ...request }: BanMemberRequest & { memberId: string }) => postMemberAction(memberId, 'ban', request);

export const useBanMember = () => useMemberAction(banMember);
