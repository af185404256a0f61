// One video job on the screen, from start to result: the start (file read as base64, network-like failures retried
// up to 3 times 2 s apart with one Idempotency-Key, so a retry never charges twice), following the job for up to
// 120 rounds of 10 s with the job kept in localStorage `activePolling` (resumed after a reload), Check Status, Cancel,
// and the signed URLs of the finished videos. The pushed job list says when the job ends; poll-operation is called
// in a round only while the socket is down (and by Check Status). Every message is the catalogue's (video-messages.ts).
import { GenerateVideoResponse, INLINE_IMAGE_MAX_BYTES, type GenerateVideoRequest, type GetVideoUrlResponse, type PollOperationResponse } from '@contracts/video';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { ApiError, newIdempotencyKey } from '@/lib/api';
import { SAME_REQUEST_WINDOW_MS } from '@/lib/idempotent-mutation';
import { liveConnection } from '@/lib/live-connection';
import { uploadGenerationImage } from '@/lib/generations';
import { profileQueryKey, useSetBalance } from '@/lib/profile';
import { useUser } from '@/lib/session-context';
import { urlRefreshMs } from '@/lib/signed-urls';
import { clearActivePolling, pollSettings, readActivePolling, writeActivePolling, type ActivePolling } from './active-polling';
import { cancelJob, getVideoUrl, pollOperation, startVideo, useJobs, useRefreshJobs } from './api';
import { isNetworkLike, jobFailureToast, VIDEO_MESSAGES, videoStartErrorToast, type ToastText } from './video-messages';

export const MAX_START_ATTEMPTS = 3;
export const START_RETRY_DELAY_MS = 2_000;
/** A poll that fails within this many attempts of the limit is reported ('Polling Error'); earlier ones are only logged. */
const POLLING_ERROR_WINDOW = 3;

export type VideoPhase =
  | { kind: 'idle' }
  | { kind: 'starting'; attempt: number }
  | ({ kind: 'polling'; run: number } & ActivePolling)
  | ({ kind: 'timed-out' } & ActivePolling)
  | { kind: 'complete'; jobId: string; urls: GetVideoUrlResponse }
  | { kind: 'failed'; jobId?: string; message: string };

export interface VideoOrder {
  /**
   * A picked file, an image already stored for this screen (imported from a product link), one of the caller's
   * finished images or a library item (the server reads those itself: nothing is uploaded again).
   */
  image: File | { imageKey: string } | { generationId: string } | { clothingItemId: string };
  prompt: string;
  duration: number;
  aspectRatio: string;
  outputCount: number;
}

const showToast = (text: ToastText, kind: 'error' | 'success' | 'info' = 'error') =>
  (kind === 'error' ? toast.error : kind === 'success' ? toast.success : toast.info)(text.title, { description: text.description });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The file's bytes as base64 (FileReader, as the browser reads an upload). */
export function readFileAsBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const result = typeof reader.result === 'string' ? reader.result : '';
      const comma = result.indexOf(',');
      if (comma < 0) reject(new Error('unreadable'));
      else resolve(result.slice(comma + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  });
}

/** What makes two orders the same request: the picked file by name, size and date (its bytes are not read again). */
function orderSignature(order: VideoOrder): string {
  const { image, ...settings } = order;
  const source = image instanceof File ? { file: [image.name, image.size, image.lastModified, image.type] } : image;
  return JSON.stringify({ source, settings });
}

/** The answer as the client accepts it: a missing job id is the catalogue's own error, not a parse failure. */
const LenientStartResponse = GenerateVideoResponse.partial({ jobId: true, operationName: true });

export function useVideoJob() {
  const user = useUser();
  const queryClient = useQueryClient();
  const setBalance = useSetBalance();
  const refreshJobs = useRefreshJobs();
  const [phase, setPhase] = useState<VideoPhase>(() => {
    const active = readActivePolling();
    return active?.operationName ? { kind: 'polling', run: 0, ...active } : { kind: 'idle' };
  });
  const runs = useRef(0);
  // The last answered order and its key: the same form sent again unchanged within SAME_REQUEST_WINDOW_MS (a second
  // click on Generate Video after the first has answered) is the same request, so the server replays the first job.
  const answered = useRef<{ signature: string; key: string; at: number } | undefined>(undefined);
  // Set synchronously by the first click and cleared when its request has answered: a second click (or Enter) in the
  // same tick, before React has disabled the button, finds it set and starts nothing.
  const inFlight = useRef(false);

  const refreshAfterEnd = useCallback(() => {
    void refreshJobs();
    void queryClient.invalidateQueries({ queryKey: profileQueryKey(user.userId) });
  }, [queryClient, refreshJobs, user.userId]);

  const poll = useCallback((entry: ActivePolling) => {
    writeActivePolling(entry);
    runs.current += 1;
    setPhase({ kind: 'polling', run: runs.current, ...entry });
  }, []);

  /** A done answer: the videos' URLs, or the failure's message. */
  const finished = useRef(new Set<string>());
  const finish = useCallback(
    async (jobId: string, answer: PollOperationResponse) => {
      // The poll and the pushed list may both report the end: it is shown once.
      if (finished.current.has(jobId)) return;
      finished.current.add(jobId);
      clearActivePolling();
      refreshAfterEnd();
      if (answer.status === 'complete') {
        try {
          setPhase({ kind: 'complete', jobId, urls: await getVideoUrl(jobId) });
          showToast(VIDEO_MESSAGES.ready, 'success');
        } catch (error) {
          setPhase({ kind: 'failed', jobId, message: error instanceof Error ? error.message : VIDEO_MESSAGES.failed });
        }
        return;
      }
      const text = jobFailureToast(answer.error?.message);
      setPhase({ kind: 'failed', jobId, message: answer.error?.message || VIDEO_MESSAGES.failed });
      showToast(text);
    },
    [refreshAfterEnd],
  );

  // An activePolling entry without an operation name can't be resumed.
  useEffect(() => {
    const active = readActivePolling();
    if (active && !active.operationName) {
      clearActivePolling();
      showToast(VIDEO_MESSAGES.cannotResume);
    }
  }, []);

  const pollingJob = phase.kind === 'polling' ? phase : undefined;

  // The job list is what realtime pushes reload: when it says the followed job has ended, the panel ends too, at once
  // (and on returning to this page, the first list read settles a job that ended while the user was away).
  const followedJob = phase.kind === 'polling' || phase.kind === 'timed-out' ? phase : undefined;
  const listedJob = useJobs().data?.find((job) => job.id === followedJob?.jobId);
  const listedEnd = listedJob && listedJob.status !== 'generating' ? listedJob : undefined;
  useEffect(() => {
    if (!listedEnd || !followedJob || listedEnd.id !== followedJob.jobId) return;
    void finish(listedEnd.id, {
      done: true,
      status: listedEnd.status,
      ...(listedEnd.status === 'failed' ? { error: { message: listedEnd.error_message ?? VIDEO_MESSAGES.failed } } : {}),
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [listedEnd?.id, listedEnd?.status, followedJob?.jobId]);

  useEffect(() => {
    if (!pollingJob) return;
    const { jobId, operationName, startedAt } = pollingJob;
    const { intervalMs, maxAttempts } = pollSettings();
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempts = 0;
    /** One poll-operation call; answers whether the loop goes on. */
    const askStatus = async (): Promise<boolean> => {
      try {
        const answer = await pollOperation(jobId, operationName);
        if (stopped) return false;
        if (answer.done) {
          await finish(jobId, answer);
          return false;
        }
      } catch (error) {
        if (stopped) return false;
        // One failed poll is only logged (the next poll may succeed); near the end of the attempts it is reported.
        console.warn('video status poll failed', error);
        if (error instanceof ApiError && error.status === 404) {
          clearActivePolling();
          setPhase({ kind: 'failed', jobId, message: error.message });
          return false;
        }
        if (attempts >= maxAttempts - POLLING_ERROR_WINDOW) showToast(VIDEO_MESSAGES.pollingError);
      }
      return true;
    };
    const tick = async () => {
      attempts += 1;
      // While the socket is open, the pushed job list ends the job (listedEnd above): the round asks nothing.
      if (liveConnection() === 'down' && !(await askStatus())) return;
      if (stopped) return;
      if (attempts >= maxAttempts) {
        setPhase({ kind: 'timed-out', jobId, operationName, startedAt });
        showToast(VIDEO_MESSAGES.pollingTimeout);
        return;
      }
      timer = setTimeout(() => void tick(), intervalMs);
    };
    timer = setTimeout(() => void tick(), intervalMs);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
    // pollingJob.run restarts the loop (Check Status, a new job); its other fields belong to that run.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pollingJob?.run, pollingJob?.jobId, finish]);

  /** One submission: the image read or uploaded, then the request (retried with one key); answers the started job's id. */
  const startOnce = useCallback(
    async (order: VideoOrder): Promise<string | undefined> => {
      if (!user?.userId) return void showToast(VIDEO_MESSAGES.signIn);
      // The button is locked from the click on, also while a large file is uploaded before the request.
      setPhase({ kind: 'starting', attempt: 1 });
      // Small files go inline as the API's imageBase64; larger ones are uploaded first, because a cloud
      // request carries at most 6 MB (about 4 MB of image once base64-encoded).
      let image: Pick<GenerateVideoRequest, 'imageBase64' | 'imageKey' | 'generationId' | 'clothingItemId'>;
      try {
        const source = order.image;
        image = !(source instanceof File)
          ? source
          : source.size > INLINE_IMAGE_MAX_BYTES
            ? { imageKey: await uploadGenerationImage(source) }
            : { imageBase64: await readFileAsBase64(source) };
      } catch (error) {
        setPhase({ kind: 'idle' });
        return void showToast(error instanceof ApiError ? { title: 'Upload failed', description: error.message } : VIDEO_MESSAGES.imageRead);
      }
      const body: GenerateVideoRequest = {
        ...image,
        prompt: order.prompt,
        duration: order.duration as GenerateVideoRequest['duration'],
        aspect_ratio: order.aspectRatio as GenerateVideoRequest['aspect_ratio'],
        output_count: order.outputCount as GenerateVideoRequest['output_count'],
      };
      // One key for every attempt of this click: a retried request is the same request, charged once.
      const signature = orderSignature(order);
      const last = answered.current;
      const idempotencyKey = last && last.signature === signature && Date.now() - last.at < SAME_REQUEST_WINDOW_MS ? last.key : newIdempotencyKey();
      let started: { jobId?: string; operationName?: string; newCredits: number } | undefined;
      for (let attempt = 1; !started; attempt++) {
        setPhase({ kind: 'starting', attempt });
        try {
          started = LenientStartResponse.parse(await startVideo(body, idempotencyKey));
        } catch (error) {
          if (isNetworkLike(error) && attempt < MAX_START_ATTEMPTS) {
            await sleep(START_RETRY_DELAY_MS);
            continue;
          }
          setPhase({ kind: 'idle' });
          if (error instanceof ApiError && error.code === 'UNAUTHENTICATED') return void showToast(VIDEO_MESSAGES.signIn);
          return void showToast(videoStartErrorToast(error));
        }
      }
      answered.current = { signature, key: idempotencyKey, at: Date.now() };
      setBalance(started.newCredits);
      if (!started.jobId) {
        setPhase({ kind: 'idle' });
        return void showToast(VIDEO_MESSAGES.noJobId);
      }
      // A replayed answer names the job already followed: it is followed again (and shown again when it has ended).
      finished.current.delete(started.jobId);
      poll({ jobId: started.jobId, operationName: started.operationName ?? '', startedAt: Date.now() });
      void refreshJobs();
      return started.jobId;
    },
    [poll, refreshJobs, setBalance, user?.userId],
  );

  const start = useCallback(
    async (order: VideoOrder): Promise<string | undefined> => {
      if (inFlight.current) return undefined;
      inFlight.current = true;
      try {
        return await startOnce(order);
      } finally {
        inFlight.current = false;
      }
    },
    [startOnce],
  );

  /** Check Status: resumes polling a job that timed out or was left (e.g. by a reload). */
  const checkStatus = useCallback(async () => {
    const target = phase.kind === 'polling' || phase.kind === 'timed-out' ? phase : readActivePolling();
    if (!target?.operationName) return void showToast(VIDEO_MESSAGES.cannotResume);
    try {
      const answer = await pollOperation(target.jobId, target.operationName);
      if (answer.done) return void (await finish(target.jobId, answer));
      showToast(VIDEO_MESSAGES.stillProcessing, 'info');
      poll({ jobId: target.jobId, operationName: target.operationName, startedAt: target.startedAt });
    } catch (error) {
      toast.error('Check Failed', { description: error instanceof Error ? error.message : 'Please try again.' });
    }
  }, [finish, phase, poll]);

  const cancel = useCallback(async () => {
    if (phase.kind !== 'polling' && phase.kind !== 'timed-out') return;
    try {
      const job = await cancelJob(phase.jobId);
      clearActivePolling();
      setPhase({ kind: 'failed', jobId: phase.jobId, message: job.error_message ?? 'Cancelled by user' });
      showToast(VIDEO_MESSAGES.cancelled, 'info');
      refreshAfterEnd();
    } catch (error) {
      toast.error('Cancel Failed', { description: error instanceof Error ? error.message : 'Please try again.' });
    }
  }, [phase, refreshAfterEnd]);

  /** Shows a job from the history: its videos when complete, its progress when still generating. */
  const show = useCallback(
    async (job: { id: string; status: string; operation_name: string; created_at: string; error_message: string | null }) => {
      if (job.status === 'generating') return poll({ jobId: job.id, operationName: job.operation_name, startedAt: Date.parse(job.created_at) });
      if (job.status === 'failed') return setPhase({ kind: 'failed', jobId: job.id, message: job.error_message || VIDEO_MESSAGES.failed });
      try {
        setPhase({ kind: 'complete', jobId: job.id, urls: await getVideoUrl(job.id) });
      } catch (error) {
        toast.error('Error', { description: error instanceof Error ? error.message : VIDEO_MESSAGES.failed });
      }
    },
    [poll],
  );

  // The finished videos' URLs are signed again ten minutes before they stop working (their answered expiresAt).
  const shownUrls = phase.kind === 'complete' ? phase : undefined;
  useEffect(() => {
    if (!shownUrls) return;
    const { jobId, urls } = shownUrls;
    const timer = setTimeout(() => {
      getVideoUrl(jobId)
        .then((fresh) => setPhase((current) => (current.kind === 'complete' && current.jobId === jobId ? { ...current, urls: fresh } : current)))
        .catch(() => undefined);
    }, urlRefreshMs([urls.expiresAt]));
    return () => clearTimeout(timer);
  }, [shownUrls]);

  return { phase, start, checkStatus, cancel, show };
}
