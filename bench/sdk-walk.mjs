// The baseline of the command's bench (bench/cli.ts): what a script on the SDK writes to print a
// whole list as JSON lines, `for await` over `members.list({ pageSize: 100 })`, the built package.
import { CommunityServerClient } from '../dist/index.js';

const client = new CommunityServerClient();
for await (const member of client.members.list({ pageSize: 100 })) process.stdout.write(`${JSON.stringify(member)}\n`);
