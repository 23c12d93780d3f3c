// A Daily SET card's checkbox (named `name`), ticked or not (null: none), in one round trip.
name => {
  const box = document.querySelector(`input[name="${name}"]`);
  return box ? box.checked : null;
}
