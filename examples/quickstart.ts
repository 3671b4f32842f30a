import { CommunityServerClient, NotFoundError, toDate } from 'community-server-sdk';

// Reads COMMUNITY_SERVER_TOKEN and COMMUNITY_SERVER_BASE_URL from the environment.
const client = new CommunityServerClient();

const server = await client.server.info();
console.log(`Server: ${server.name ?? server.id}`);

// Every member, every page, fetched lazily as the loop goes.
let count = 0;
for await (const member of client.members.list({ pageSize: 100 })) {
  if (count++ < 3) console.log(`- ${member.id}, joined ${toDate(member.createdAt).toISOString().slice(0, 10)}`);
}
console.log(`${count} members`);

// Errors are typed: catch the one you expect, let the others through.
try {
  await client.members.get('no-such-member');
} catch (error) {
  if (!(error instanceof NotFoundError)) throw error;
  console.log(`Not found (${error.status} ${error.code}): ${error.message}`);
}
