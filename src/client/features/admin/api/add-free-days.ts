import { postMemberAction, useMemberAction } from './member-action';

export const addFreeDays = ({ memberId, days }: { memberId: string; days: number }) => postMemberAction(memberId, 'free-days', { days });

export const useAddFreeDays = () => useMemberAction(addFreeDays);
