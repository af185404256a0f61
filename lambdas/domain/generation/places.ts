// A generation's place under the caller's running-work cap, given back when the generation has ended. A batch photo
// holds none of its own (its batch holds one place for all its photos).
import type { GenerationRecord } from '../../data/generations-repo.js';
import { endRunning } from '../limits.js';

export async function endGenerationPlace(generation: Pick<GenerationRecord, 'user_id' | 'id' | 'generation_type' | 'status'>): Promise<void> {
  if (generation.status === 'processing' || generation.generation_type === 'batch') return;
  await endRunning(generation.user_id, 'image', generation.id);
}
