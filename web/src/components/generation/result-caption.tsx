/** A past result's name over the bottom of its thumbnail in a picker ("Blue Logo Tee · Maya · 2K 9:16"). */
export function ResultCaption({ title }: { title: string }) {
  return (
    <span aria-hidden="true" className="absolute inset-x-0 bottom-0 line-clamp-3 bg-slate-900/75 px-1 py-0.5 text-[10px] leading-tight text-white">
      {title}
    </span>
  );
}
