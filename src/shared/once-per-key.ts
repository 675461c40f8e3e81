/** Builds a value once per object key and keeps it as long as the key lives (a WeakMap memo). */
export function oncePerKey<Key extends object, Value>(build: (key: Key) => Value): (key: Key) => Value {
  const built = new WeakMap<Key, Value>();
  return (key) => {
    let value = built.get(key);
    if (value === undefined) {
      value = build(key);
      built.set(key, value);
    }
    return value;
  };
}
