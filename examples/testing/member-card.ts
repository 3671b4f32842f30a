/**
 * A small bot command, `!whois <chat id>`: a card about the member behind a chat account. The
 * tests beside it run it against the offline mock, under vitest (`member-card.test.ts`) and jest
 * (`member-card.jest.test.ts`).
 */
import { InternalServerError, NotFoundError, toDate, type CommunityServerClient, type Loa } from 'community-server-sdk';

const day = (timestamp: number) => toDate(timestamp).toISOString().slice(0, 10);
const onLeave = (loa: Loa) => loa.startedAt != null && loa.endedAt == null && loa.cancelledAt == null && loa.expiredAt == null;

export async function memberCard(client: CommunityServerClient, chatId: string): Promise<string> {
  const member = await client.members.getByChatId(chatId).catch((error: unknown) => {
    if (error instanceof NotFoundError) return null; // nobody has linked this chat account
    throw error;
  });
  if (!member) return `No member is linked to chat account ${chatId}.`;

  const [game, loas] = await Promise.all([
    client.verification.gameByChatId(chatId).then(
      (connection) => `game account ${connection.gameId}`,
      (error: unknown) => {
        if (error instanceof NotFoundError) return 'no game account verified';
        if (error instanceof InternalServerError) return 'game account lookup unavailable, try again later';
        throw error; // anything else (a revoked token, say) is the caller's to handle
      },
    ),
    client.loas.byMember(member.id, { pageSize: 100 }).toArray(),
  ]);
  const leave = loas.some(onLeave) ? 'on leave' : 'on duty';
  return `Member ${member.id}, joined ${day(member.createdAt)}: ${game}; ${leave}.`;
}
