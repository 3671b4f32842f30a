/**
 * The vocabulary of a roleplay community that several tables (and `mock.activity`) draw from.
 * @module
 */
import type { DepartmentKind } from './table';

/** The departments a server has, in order; a server with more repeats them. */
export const DEPARTMENT_KINDS: readonly DepartmentKind[] = [
  { name: 'State Police', icon: 'shield', agency: 'SP' },
  { name: 'Sheriff Office', icon: 'star', agency: 'SO' },
  { name: 'Fire & Rescue', icon: 'flame', agency: 'FD' },
  { name: 'Emergency Medical Services', icon: 'ambulance', agency: 'EMS' },
  { name: 'Communications', icon: 'radio', agency: 'DISPATCH' },
  { name: 'Civilian Operations', icon: 'user', agency: 'CIV' },
];
export const RANKS = ['Cadet', 'Probationary Officer', 'Officer', 'Senior Officer', 'Corporal', 'Sergeant', 'Lieutenant', 'Captain'];
export const CALL_TITLES = [
  'Traffic stop',
  'Robbery in progress',
  'Shots fired',
  'Medical emergency',
  'Structure fire',
  'Suspicious vehicle',
  'Noise complaint',
  'Vehicle pursuit',
  'Welfare check',
  'Domestic disturbance',
];
export const LOG_REASONS = [
  'Random deathmatch',
  'Failure to roleplay',
  'Vehicle deathmatch',
  'Exploiting',
  'Harassment',
  'Combat logging',
  'Trolling',
  'Fear RP violation',
  'Meta gaming',
  'New life rule',
];
export const SHIFT_TYPES = ['Patrol', 'Traffic', 'Dispatch', 'Training', 'Supervisor'];
