// The member the benches' own HTTP servers answer with (bench/fixture-server.mjs,
// bench/members-server.mjs): the i-th of a made-up server, valid against the SDK's schema.
export const member = (i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  serverId: 'ebc9db27-c64c-43f5-8629-90632de18ad5',
  roles: i % 3 ? ['a23afcc7-0f96-4883-b855-e2cfc29e390c'] : [],
  createdAt: 1_700_000_000 + i * 3_600,
  username: `member_${i}`,
});
